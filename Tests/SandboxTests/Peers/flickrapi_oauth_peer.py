"""Python flickrapi, unmodified, signs in to the sandbox with OAuth and calls
flickr.test.login signed. Every URL is a class attribute of flickrapi; the
verifier is read from the sandbox's authorize page, as a person would.

Usage: flickrapi_oauth_peer.py BASE_URL API_KEY API_SECRET
Prints one JSON object: who the exchange named, and who test.login says.
"""
import json
import re
import sys
import urllib.request

import flickrapi
from flickrapi.auth import OAuthFlickrInterface

base, key, secret = sys.argv[1].rstrip("/"), sys.argv[2], sys.argv[3]
flickrapi.FlickrAPI.REST_URL = base + "/services/rest/"
OAuthFlickrInterface.REQUEST_TOKEN_URL = base + "/services/oauth/request_token"
OAuthFlickrInterface.AUTHORIZE_URL = base + "/services/oauth/authorize"
OAuthFlickrInterface.ACCESS_TOKEN_URL = base + "/services/oauth/access_token"

api = flickrapi.FlickrAPI(key, secret, format="parsed-json", store_token=False, cache=False)
api.get_request_token(oauth_callback="oob")
page = urllib.request.urlopen(api.auth_url(perms="write")).read().decode()
verifier = re.search(r'<span id="verifier">([0-9-]+)</span>', page).group(1)
api.get_access_token(verifier)
token = api.token_cache.token
login = api.test.login()

refused = None
try:
    wrong = flickrapi.FlickrAPI(key, secret + "-wrong", format="parsed-json", store_token=False, cache=False,
                                token=flickrapi.auth.FlickrAccessToken(token.token, token.token_secret, "write",
                                                                       token.fullname, token.username, token.user_nsid))
    wrong.test.login()
except flickrapi.FlickrError as error:
    refused = int(error.code) if error.code is not None else str(error)

print(json.dumps({
    "verifier": verifier,
    "user_nsid": token.user_nsid, "username": token.username, "fullname": token.fullname,
    "login": {"id": login["user"]["id"], "username": login["user"]["username"]["_content"]},
    "wrong_secret": refused,
}))
