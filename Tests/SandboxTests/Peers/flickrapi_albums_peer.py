"""Drives the unmodified `flickrapi` package through a person's photostream
and albums on a Flickr-compatible endpoint and prints what it understood,
as JSON, for the sandbox tests.

usage: flickrapi_albums_peer.py REST_URL API_KEY FORMAT PROFILE_URL ALBUM_ID
FORMAT is 'parsed-json' or 'etree' (flickrapi's own names).
"""
import json
import sys

import flickr_peer_support


def ids(response, fmt, envelope):
    if fmt == "etree":
        return [p.get("id") for p in response.find(envelope).findall("photo")]
    return [p["id"] for p in response[envelope]["photo"]]


def attribute(response, fmt, envelope, name):
    if fmt == "etree":
        return response.find(envelope).get(name)
    return str(response[envelope][name])


def main():
    rest_url, api_key, fmt, profile_url, album_id = sys.argv[1:6]
    flickr = flickr_peer_support.client(rest_url, api_key, fmt)

    looked = flickr.urls.lookupUser(url=profile_url)
    user_id = looked.find("user").get("id") if fmt == "etree" else looked["user"]["id"]
    result = {"user": user_id, "public": [], "album": []}

    first = flickr.people.getPublicPhotos(user_id=user_id, per_page=100, page=1, extras="media")
    pages = int(attribute(first, fmt, "photos", "pages"))
    result["public"] = ids(first, fmt, "photos")
    for page in range(2, pages + 1):
        result["public"] += ids(flickr.people.getPublicPhotos(user_id=user_id, per_page=100, page=page), fmt, "photos")

    sets = flickr.photosets.getList(user_id=user_id)
    if fmt == "etree":
        result["sets"] = [{"id": s.get("id"), "photos": int(s.get("photos")), "videos": int(s.get("videos")),
                           "title": s.findtext("title")} for s in sets.find("photosets").findall("photoset")]
    else:
        result["sets"] = [{"id": s["id"], "photos": int(s["photos"]), "videos": int(s["videos"]),
                           "title": s["title"]["_content"]} for s in sets["photosets"]["photoset"]]

    page = 1
    while True:
        response = flickr.photosets.getPhotos(photoset_id=album_id, user_id=user_id, per_page=70, page=page)
        result["album"] += ids(response, fmt, "photoset")
        result["album_owner"] = attribute(response, fmt, "photoset", "owner")
        if page >= int(attribute(response, fmt, "photoset", "pages")):
            break
        page += 1
    result["missing"] = flickr_peer_support.failure(flickr.photosets.getPhotos, photoset_id="12345678901234567890")
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    main()
