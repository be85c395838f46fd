"""Openverse's own Python client (openverse-api-client) against the sandbox.

Usage: openverse_peer.py BASE_URL QUERY [CLIENT_ID CLIENT_SECRET]

Searches anonymously (two pages), then, given client credentials, through the
client's token support with a larger page and a licence filter, and fetches
one image by id. Every body is checked against the client's typed models
(its TypedDicts, read with typing.get_type_hints): a missing key or a value of
the wrong type is reported. Prints one JSON object: the ids of each search, the
counts, and the problems found (an empty list when the wire format matches).
"""

import decimal
import json
import sys
import types
import typing

from openverse_api_client import OpenverseClient, endpoints


def problems_of(value, annotation, where):
    """Where `value` does not fit `annotation`, as a list of sentences."""
    origin = typing.get_origin(annotation)
    arguments = typing.get_args(annotation)
    if annotation is typing.Any:
        return []
    if origin in (typing.Union, types.UnionType):
        for option in arguments:
            if not problems_of(value, option, where):
                return []
        return [f"{where}: {value!r} fits none of {annotation}"]
    if origin is typing.Literal:
        return [] if value in arguments else [f"{where}: {value!r} is not one of {arguments}"]
    if annotation is type(None):
        return [] if value is None else [f"{where}: {value!r} is not null"]
    if origin is list:
        if not isinstance(value, list):
            return [f"{where}: {value!r} is not a list"]
        found = []
        for index, item in enumerate(value):
            found += problems_of(item, arguments[0], f"{where}[{index}]")
        return found
    # The client builds its models with typing_extensions.TypedDict, which typing.is_typeddict misses.
    if isinstance(annotation, type) and hasattr(annotation, "__required_keys__"):
        if not isinstance(value, dict):
            return [f"{where}: {value!r} is not an object"]
        hints = typing.get_type_hints(annotation)
        found = [f"{where}: missing {key}" for key in sorted(annotation.__required_keys__) if key not in value]
        for key, hint in hints.items():
            if key in value:
                found += problems_of(value[key], hint, f"{where}.{key}")
        return found
    if annotation is decimal.Decimal:
        # JSON numbers arrive as float or int; the model names Decimal.
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        return [] if ok else [f"{where}: {value!r} is not a number"]
    if annotation is bool:
        return [] if isinstance(value, bool) else [f"{where}: {value!r} is not a boolean"]
    if annotation is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
        return [] if ok else [f"{where}: {value!r} is not an integer"]
    if isinstance(annotation, type):
        return [] if isinstance(value, annotation) else [f"{where}: {value!r} is not {annotation.__name__}"]
    return [f"{where}: cannot check against {annotation}"]


def search_model():
    return endpoints.GET_v1_images.response


def main():
    base_url, query = sys.argv[1], sys.argv[2]
    credentials = sys.argv[3:5]
    report = {"problems": []}

    with OpenverseClient(base_url=base_url) as client:
        for page in (1, 2):
            response = client.GET_v1_images(q=query, page=page)
            report["problems"] += [f"anonymous page {page}: status {response.status_code}"] if response.status_code != 200 else []
            report["problems"] += problems_of(response.body, search_model(), f"anonymous page {page}")
            report[f"anonymous_page_{page}"] = [item["id"] for item in response.body.get("results", [])]
            report[f"anonymous_result_count"] = response.body.get("result_count")
            report[f"anonymous_page_count"] = response.body.get("page_count")
        refused = client.GET_v1_images(q=query, page_size=50)
        report["anonymous_page_size_50_status"] = refused.status_code

    if len(credentials) == 2:
        with OpenverseClient(base_url=base_url, client_id=credentials[0], client_secret=credentials[1]) as client:
            response = client.GET_v1_images(q=query, page_size=50, license="by,by-sa,cc0")
            report["problems"] += [f"authenticated: status {response.status_code}"] if response.status_code != 200 else []
            report["problems"] += problems_of(response.body, search_model(), "authenticated")
            report["authenticated"] = [item["id"] for item in response.body.get("results", [])]
            report["authenticated_licenses"] = sorted({item["license"] for item in response.body.get("results", [])})
            report["authenticated_result_count"] = response.body.get("result_count")
            if report["authenticated"]:
                single = client.GET_v1_single_image(identifier=report["authenticated"][0])
                report["problems"] += problems_of(single.body, endpoints.media.ImageDetail, "single image")
                report["single"] = single.body.get("id")

    json.dump(report, sys.stdout, ensure_ascii=False)


if __name__ == "__main__":
    main()
