"""What the flickrapi peer scripts share: a client on the given endpoint,
and a call's Flickr failure as data."""
import flickrapi


def client(rest_url, api_key, fmt):
    # The endpoint is a class attribute; the package has no other setting for it.
    flickrapi.FlickrAPI.REST_URL = rest_url
    return flickrapi.FlickrAPI(api_key, "sandbox-secret", format=fmt, store_token=False, cache=False)


def failure(call, **arguments):
    """None when the call succeeds, else the FlickrError's code and message."""
    try:
        call(**arguments)
        return None
    except flickrapi.FlickrError as error:
        return {"code": int(error.code), "message": str(error)}
