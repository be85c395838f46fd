# Shared by Scripts/run, Scripts/test and Scripts/bench: installs the Debian
# packages the build needs when they are missing, and checks for Swift.
# Source it; it defines functions only.

# ensure_packages PKG...: installs the listed Debian packages that are not installed yet.
ensure_packages() {
    local missing=()
    local package
    for package in "$@"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" \
            || missing+=("$package")
    done
    [ ${#missing[@]} -eq 0 ] && return 0

    echo "Installing missing packages: ${missing[*]}" >&2
    local sudo=()
    if [ "$(id -u)" -ne 0 ]; then
        if command -v sudo >/dev/null 2>&1; then
            sudo=(sudo)
        else
            echo "error: need root (or sudo) to install: ${missing[*]}" >&2
            return 1
        fi
    fi
    if ! "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >&2; then
        # The package lists may be missing or stale on a fresh machine.
        "${sudo[@]}" apt-get update -q >&2
        "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >&2
    fi
}

# The C libraries the targets link, and the tools the build uses.
ensure_build_dependencies() {
    ensure_packages pkg-config libreadline-dev libturbojpeg0-dev libchafa-dev libglib2.0-dev
    if ! command -v swift >/dev/null 2>&1; then
        if [ -x /opt/swift/usr/bin/swift ]; then
            export PATH="/opt/swift/usr/bin:$PATH"
        else
            echo "error: Swift 6 is not installed (swift not on PATH). Install it from swift.org, then retry." >&2
            return 1
        fi
    fi
}
