# Third-party clients the sandbox tests run against it unmodified: Python
# flickrapi, the C library flickcurl, shutterstock-cli, Openverse's
# openverse-api-client and the MediaWiki client mwclient. Source it; it
# defines functions only. Every step only warns when it cannot install:
# the peer tests then skip and say so, and nothing else depends on them.

# _peer_warn MESSAGE: one line on stderr.
_peer_warn() { echo "warning: $*" >&2; }

# _peer_python: the Python interpreter the peer tests will use, if any.
_peer_python() {
    command -v python3 2>/dev/null || command -v python 2>/dev/null
}

# _peer_pip_install MODULE PACKAGE: installs PACKAGE with pip unless MODULE imports already.
_peer_pip_install() {
    local python
    python=$(_peer_python) || { _peer_warn "no python3: cannot install $2"; return 0; }
    "$python" -c "import $1" >/dev/null 2>&1 && return 0
    echo "Installing $2 (pip)" >&2
    "$python" -m pip install -q "$2" >&2 \
        || "$python" -m pip install -q --break-system-packages "$2" >&2 \
        || _peer_warn "could not install $2 with pip; its peer tests will be skipped"
    return 0
}

# _peer_apt_install PACKAGE...: installs the listed Debian packages that exist and are missing.
_peer_apt_install() {
    command -v apt-get >/dev/null 2>&1 || { _peer_warn "no apt-get: cannot install $*"; return 0; }
    local wanted=() package
    for package in "$@"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" && continue
        if ! apt-cache show "$package" >/dev/null 2>&1; then
            _peer_warn "Debian package $package is not available here"
            continue
        fi
        wanted+=("$package")
    done
    [ ${#wanted[@]} -eq 0 ] && return 0
    local sudo=()
    if [ "$(id -u)" -ne 0 ]; then
        if command -v sudo >/dev/null 2>&1; then sudo=(sudo -n); else
            _peer_warn "need root to install ${wanted[*]}; the tests that use them will be skipped"
            return 0
        fi
    fi
    echo "Installing ${wanted[*]} (apt)" >&2
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${wanted[@]}" >&2 \
        || _peer_warn "could not install ${wanted[*]}; the tests that use them will be skipped"
    return 0
}

# ensure_peer_clients: installs whatever peer client is missing; never fails.
ensure_peer_clients() {
    _peer_pip_install flickrapi flickrapi
    # Openverse's client: 0.0.1 (the newest) fails on import, so the last alpha that works.
    _peer_pip_install openverse_api_client "openverse-api-client==0.0.1a3"
    # MediaWiki's Python client, for the api.php the sandbox serves at /w/.
    _peer_pip_install mwclient "mwclient>=0.11,<0.12"
    # shutterstock-cli installs a `shutterstock` command; its module is `shutterstock.cli`.
    if ! command -v shutterstock >/dev/null 2>&1; then
        _peer_pip_install shutterstock.cli shutterstock-cli
    fi
    _peer_apt_install libflickcurl-dev flickcurl-utils
    # netpbm's pngtopnm and giftopnm decode the sandbox's PNGs and GIFs in its tests.
    _peer_apt_install netpbm
    # exiftool reads back the XMP sidecars `flickr download` writes.
    _peer_apt_install libimage-exiftool-perl
    return 0
}
