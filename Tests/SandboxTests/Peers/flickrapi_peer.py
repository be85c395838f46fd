"""Drives the unmodified `flickrapi` package against a Flickr-compatible
endpoint and prints what it understood, as JSON, for the sandbox tests.

usage: flickrapi_peer.py REST_URL API_KEY FORMAT QUERY
FORMAT is 'parsed-json' or 'etree' (flickrapi's own names).
"""
import json
import sys
import urllib.request

import flickr_peer_support


def photo_list(response, fmt, envelope):
    if fmt == "etree":
        return [{"id": p.get("id"), "title": p.get("title")} for p in response.find(envelope).findall("photo")]
    return [{"id": p["id"], "title": p["title"]} for p in response[envelope]["photo"]]


def info(response, fmt):
    if fmt == "etree":
        photo = response.find("photo")
        owner = photo.find("owner")
        return {
            "id": photo.get("id"),
            "title": photo.findtext("title") or "",
            "owner": owner.get("nsid"),
            "username": owner.get("username"),
            "taken": photo.find("dates").get("taken"),
        }
    photo = response["photo"]
    return {
        "id": photo["id"],
        "title": photo["title"]["_content"],
        "owner": photo["owner"]["nsid"],
        "username": photo["owner"]["username"],
        "taken": photo["dates"]["taken"],
    }


def sizes(response, fmt):
    if fmt == "etree":
        entries = [s.attrib for s in response.find("sizes").findall("size")]
    else:
        entries = response["sizes"]["size"]
    return [{"label": s["label"], "width": int(s["width"]), "height": int(s["height"]), "source": s["source"]}
            for s in entries]


def main():
    rest_url, api_key, fmt, query = sys.argv[1:5]
    flickr = flickr_peer_support.client(rest_url, api_key, fmt)

    result = {
        "search": photo_list(flickr.photos.search(text=query, per_page=10), fmt, "photos"),
        "recent": photo_list(flickr.photos.getRecent(per_page=5), fmt, "photos"),
    }
    first = result["search"][0]["id"]
    result["info"] = info(flickr.photos.getInfo(photo_id=first), fmt)
    result["sizes"] = sizes(flickr.photos.getSizes(photo_id=first), fmt)
    small = next(s for s in result["sizes"] if s["label"] == "Small 320")
    with urllib.request.urlopen(small["source"], timeout=30) as reply:
        body = reply.read()
    result["fetched"] = {"source": small["source"], "bytes": len(body), "jpeg": body[:2] == b"\xff\xd8"}
    result["missing"] = flickr_peer_support.failure(flickr.photos.getInfo, photo_id="1")
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    main()
