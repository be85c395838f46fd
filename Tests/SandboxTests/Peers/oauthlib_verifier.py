"""A small Flickr stand-in that checks every OAuth 1.0a signature it is sent
with oauthlib's own implementation of RFC 5849 (base string, parameter
normalisation, HMAC-SHA1), independent of the app's signer and of the
sandbox's check.

Usage: oauthlib_verifier.py CONSUMER_KEY CONSUMER_SECRET
Prints "listening on http://127.0.0.1:PORT" first. Its verifier is fixed
(123-456-789). GET /results answers every check made so far as JSON.
"""
import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

from oauthlib.oauth1.rfc5849 import signature

CONSUMER_KEY, CONSUMER_SECRET = sys.argv[1], sys.argv[2]
REQUEST_TOKEN, REQUEST_SECRET = "req-token", "req/secret+1"
ACCESS_TOKEN, ACCESS_SECRET = "acc-token", "acc&secret=2"
VERIFIER = "123-456-789"
SECRETS = {REQUEST_TOKEN: REQUEST_SECRET, ACCESS_TOKEN: ACCESS_SECRET}
results = []
lock = threading.Lock()


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def answer(self, status, body, content_type):
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def check(self, body):
        parts = urlsplit(self.path)
        headers = {name: value for name, value in self.headers.items()}
        form = body if self.headers.get("Content-Type", "").startswith("application/x-www-form-urlencoded") else ""
        every = signature.collect_parameters(uri_query=parts.query, body=form, headers=headers,
                                             exclude_oauth_signature=False)
        values = dict(every)
        signed = signature.collect_parameters(uri_query=parts.query, body=form, headers=headers)
        uri = signature.base_string_uri("http://" + self.headers["Host"] + parts.path)
        base = signature.signature_base_string(self.command, uri, signature.normalize_parameters(signed))
        token = values.get("oauth_token")
        expected = signature.sign_hmac_sha1(base, CONSUMER_SECRET, SECRETS.get(token, "") if token else "")
        ok = (values.get("oauth_consumer_key") == CONSUMER_KEY and values.get("oauth_signature") == expected
              and (token is None or token in SECRETS))
        with lock:
            results.append({"method": self.command, "path": parts.path, "ok": ok, "token": token,
                            "query": bool(parts.query), "form": bool(form), "base": base})
        return ok, values

    def handle_call(self, body):
        parts = urlsplit(self.path)
        if parts.path == "/results":
            with lock:
                return self.answer(200, json.dumps(results), "application/json")
        ok, values = self.check(body)
        if parts.path == "/services/oauth/request_token":
            if not ok or values.get("oauth_callback") != "oob":
                return self.answer(401, "oauth_problem=signature_invalid", "text/plain")
            return self.answer(200, "oauth_callback_confirmed=true&oauth_token=%s&oauth_token_secret=%s"
                               % (REQUEST_TOKEN, "req%2Fsecret%2B1"), "text/plain")
        if parts.path == "/services/oauth/access_token":
            if not ok or values.get("oauth_token") != REQUEST_TOKEN:
                return self.answer(401, "oauth_problem=signature_invalid", "text/plain")
            if values.get("oauth_verifier") != VERIFIER:
                return self.answer(401, "oauth_problem=verifier_invalid", "text/plain")
            return self.answer(200, "fullname=Test%%20Person&oauth_token=%s&oauth_token_secret=%s"
                               "&user_nsid=1234%%40N01&username=tester" % (ACCESS_TOKEN, "acc%26secret%3D2"),
                               "text/plain")
        if parts.path == "/services/rest/":
            if not ok:
                return self.answer(200, '{"stat":"fail","code":96,"message":"Invalid signature"}', "application/json")
            return self.answer(200, '{"user":{"id":"1234@N01","username":{"_content":"tester"}},"stat":"ok"}',
                               "application/json")
        self.answer(404, "not found", "text/plain")

    def do_GET(self):
        self.handle_call("")

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        self.handle_call(self.rfile.read(length).decode())


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print("listening on http://127.0.0.1:%d" % server.server_address[1], flush=True)
server.serve_forever()
