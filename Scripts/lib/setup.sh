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
    ensure_packages pkg-config libreadline-dev libturbojpeg0-dev libchafa-dev libglib2.0-dev zlib1g-dev \
        libpng-dev libgif-dev libwebp-dev
    if ! command -v swift >/dev/null 2>&1; then
        if [ -x /opt/swift/usr/bin/swift ]; then
            export PATH="/opt/swift/usr/bin:$PATH"
        else
            echo "error: Swift 6 is not installed (swift not on PATH). Install it from swift.org, then retry." >&2
            return 1
        fi
    fi
}

# swift_build_flags CONFIGURATION: the flags of a build. Release builds link the
# Swift runtime and Foundation statically: the binary then starts in about
# 15 ms instead of 30 (it skips binding symbols across 30 shared libraries;
# `Scripts/bench` includes start-up in every row), and it runs on machines
# without a Swift toolchain.
swift_build_flags() {
    if [ "$1" = release ]; then
        echo "-c release --static-swift-stdlib"
    else
        echo "-c $1"
    fi
}

# build_product CONFIGURATION SCRATCH PRODUCT: builds one product into SCRATCH,
# hiding pkg-config's harmless "prohibited flag" warnings (with pipefail, the
# build's own status decides).
build_product() {
    # shellcheck disable=SC2046 # the flags are words on purpose
    swift build $(swift_build_flags "$1") --scratch-path "$2" --product "$3" 2>&1 \
        | { grep -v "prohibited flag" || true; } >&2
}

# product_folder CONFIGURATION SCRATCH: where build_product puts binaries.
product_folder() {
    # shellcheck disable=SC2046
    swift build $(swift_build_flags "$1") --scratch-path "$2" --show-bin-path
}
