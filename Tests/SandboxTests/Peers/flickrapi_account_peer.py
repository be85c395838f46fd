"""Python flickrapi, unmodified, as a signed-in person on the sandbox: it
signs in (the verifier read from the authorize page), uploads a private
photo, finds it in its signed people.getPhotos, and checks that an unsigned
search and getInfo never show it. Every URL is a class attribute.

Usage: flickrapi_account_peer.py BASE_URL API_KEY API_SECRET [PHOTO_ID]
PHOTO_ID: a photo uploaded by another client for the same person, which the
signed listing should hold too. Prints one JSON object.
"""
import json
import os
import re
import sys
import tempfile
import urllib.request

import flickrapi
from flickrapi.auth import OAuthFlickrInterface

base, key, secret = sys.argv[1].rstrip("/"), sys.argv[2], sys.argv[3]
other_upload = sys.argv[4] if len(sys.argv) > 4 else None
flickrapi.FlickrAPI.REST_URL = base + "/services/rest/"
flickrapi.FlickrAPI.UPLOAD_URL = base + "/services/upload/"
OAuthFlickrInterface.REQUEST_TOKEN_URL = base + "/services/oauth/request_token"
OAuthFlickrInterface.AUTHORIZE_URL = base + "/services/oauth/authorize"
OAuthFlickrInterface.ACCESS_TOKEN_URL = base + "/services/oauth/access_token"

api = flickrapi.FlickrAPI(key, secret, format="parsed-json", store_token=False, cache=False)
api.get_request_token(oauth_callback="oob")
page = urllib.request.urlopen(api.auth_url(perms="write")).read().decode()
api.get_access_token(re.search(r'<span id="verifier">([0-9-]+)</span>', page).group(1))
me = api.token_cache.token.user_nsid

# A real JPEG to send: one of the sandbox's own images.
recent = api.photos.getRecent(per_page=1, extras="url_q")
image = urllib.request.urlopen(recent["photos"]["photo"][0]["url_q"]).read()
title = "flickrapi private upload"
with tempfile.NamedTemporaryFile(suffix=".jpg", delete=False) as handle:
    handle.write(image)
try:
    answer = api.upload(handle.name, title=title, tags='peer "blue hour"', is_public="0", is_friend="0",
                        is_family="0", format="etree")
finally:
    os.unlink(handle.name)
photo_id = answer.find("photoid").text

listing = api.people.getPhotos(user_id="me", per_page=500)["photos"]["photo"]
listed = [photo for photo in listing if photo["id"] == photo_id]

# Unsigned: a client with no token at all.
stranger = flickrapi.FlickrAPI(key, secret, format="parsed-json", store_token=False, cache=False)
found = stranger.photos.search(text=title, per_page=500)["photos"]["photo"]
by_owner = stranger.photos.search(user_id=me, per_page=500)["photos"]["photo"]
try:
    stranger.photos.getInfo(photo_id=photo_id)
    info_refusal = None
except flickrapi.FlickrError as error:
    info_refusal = int(error.code) if error.code is not None else str(error)

print(json.dumps({
    "user_nsid": me,
    "photo_id": photo_id,
    "first_listed": listing[0]["id"] if listing else None,
    "listed": listed[0] if listed else None,
    "unsigned_search_ids": [photo["id"] for photo in found + by_owner],
    "unsigned_info_refusal": info_refusal,
    "other_upload_listed": None if other_upload is None else any(photo["id"] == other_upload for photo in listing),
}))
