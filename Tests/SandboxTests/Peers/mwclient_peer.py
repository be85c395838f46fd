#!/usr/bin/env python3
"""mwclient, unmodified, against the sandbox's /w/api.php.

Usage: mwclient_peer.py HOST:PORT QUERY PER_PAGE PAGES

Connects the way mwclient's documentation says (it asks siteinfo and
userinfo first), then searches files (namespace 6) twice: as a generator
with imageinfo, the query the app makes, following mwclient's own
`continue` handling, and through `Site.search` (list=search). Prints one
JSON object: the page ids in rank order for both, what the site said it
is, and the problems seen (empty when the client accepted everything).
"""
import json
import sys

import mwclient
import mwclient.listing


def main():
    host, query, per_page, pages = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    wanted = per_page * pages
    problems = []
    site = mwclient.Site(host, path="/w/", scheme="http",
                         clients_useragent="flickr-peer-test/1.0 (sandbox)")

    # The app's query: generator=search with imageinfo. The pages come keyed
    # by page id, so the rank is each page's `index`.
    kwargs = dict(mwclient.listing.List.generate_kwargs("gsr", search=query, namespace=6))
    generator = mwclient.listing.GeneratorList(
        site, "search", "sr", max_items=wanted, api_chunk_size=per_page, **kwargs)
    ranked = []
    for image in generator:
        info = image._info
        if "index" not in info:
            problems.append("page %s has no index" % info.get("pageid"))
            continue
        if not image.imageinfo.get("url"):
            problems.append("page %s has no imageinfo url" % info.get("pageid"))
        ranked.append((info["index"], str(info["pageid"])))
    ranked.sort()

    searched = [str(result["pageid"]) for result in site.search(query, namespace=6, max_items=wanted,
                                                                  api_chunk_size=per_page)]
    print(json.dumps({
        "generator_ids": [pageid for _, pageid in ranked],
        "search_ids": searched,
        "generator": site.site.get("generator"),
        "file_namespace": site.namespaces.get(6),
        "problems": problems,
    }))


if __name__ == "__main__":
    main()
