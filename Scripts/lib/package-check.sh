#!/usr/bin/env bash
# package-check.sh DEB TARBALL: checks the package the way a user's machine
# would see it. Extracts the .deb into a temporary root and, in an empty
# environment (env -i: no Swift toolchain on PATH or LD_LIBRARY_PATH):
#   - `flickr --version` agrees with the package's Version: and the tarball's name;
#   - ldd finds every library, none from the Swift toolchain, and each
#     library's Debian package is in Depends: and in the copyright file;
#   - `flickr sandbox --port 0` from that binary answers
#     `flickr search kittens --json` from the same binary: 30 JSON lines of
#     Flickr photos whose images the sandbox serves;
#   - the man page renders without a warning, the completion scripts are there;
#   - the tarball holds the same files as the .deb;
#   - lintian reports no error.
# Prints one "ok"/"FAIL" line per check and "N passed, N failed"; exits 1 on
# any failure.
set -uo pipefail
DEB=$1
TARBALL=$2

PASSED=0
FAILED=0
pass() { echo "ok: $*"; PASSED=$((PASSED + 1)); }
fail() { echo "FAIL: $*"; FAILED=$((FAILED + 1)); }
check() { # check DESCRIPTION COMMAND...: passes when COMMAND exits 0.
    local description=$1; shift
    if "$@"; then pass "$description"; else fail "$description"; fi
}

WORK=$(mktemp -d "${TMPDIR:-/tmp}/flickr-package-check.XXXXXX")
SANDBOX_PID=
cleanup() {
    if [[ -n $SANDBOX_PID ]]; then kill "$SANDBOX_PID" 2>/dev/null; wait "$SANDBOX_PID" 2>/dev/null; fi
    rm -rf "$WORK"
}
trap cleanup EXIT

ROOT=$WORK/root
dpkg-deb -x "$DEB" "$ROOT"
BIN=$ROOT/usr/bin/flickr
mkdir -p "$WORK/home"
# What a user's login gives: a home, a terminal type, the system's PATH; no
# Swift anywhere.
clean() {
    env -i HOME="$WORK/home" PATH=/usr/bin:/bin TERM=dumb "$@"
}

# --- one version ---------------------------------------------------------------
PACKAGE_VERSION=$(dpkg-deb -f "$DEB" Version)
ARCH=$(dpkg-deb -f "$DEB" Architecture)
BINARY_VERSION=$(clean "$BIN" --version 2>&1)
check "flickr --version ($BINARY_VERSION) is the package's Version: ($PACKAGE_VERSION)" \
    test "$BINARY_VERSION" = "$PACKAGE_VERSION"
check "the tarball is named for that version: $(basename "$TARBALL")" \
    test "$(basename "$TARBALL")" = "flickr-$PACKAGE_VERSION-linux-$ARCH.tar.gz"
check "the .deb is named for that version: $(basename "$DEB")" \
    test "$(basename "$DEB")" = "flickr_${PACKAGE_VERSION}_$ARCH.deb"
check "the man page's header names that version" \
    bash -c "zcat '$ROOT/usr/share/man/man1/flickr.1.gz' | head -1 | grep -qF '\"flickr $PACKAGE_VERSION\"'"

# --- libraries -----------------------------------------------------------------
clean ldd "$BIN" >"$WORK/ldd.txt" 2>&1
check "ldd finds every library" bash -c "! grep -q 'not found' '$WORK/ldd.txt'"
check "no library from the Swift toolchain (/opt/swift, libswift*, libFoundation*)" \
    bash -c "! grep -Eq '/opt/swift|libswift|libFoundation|libdispatch' '$WORK/ldd.txt'"
DEPENDS=$(dpkg-deb -f "$DEB" Depends)
echo "   Depends: $DEPENDS"
# owner_of PATH: the Debian package that ships PATH (with /usr merged, dpkg
# may know it under /lib or /usr/lib, as the link or the file it names).
owner_of() {
    local real candidate
    real=$(readlink -f "$1")
    for candidate in "$1" "${1#/usr}" "/usr$1" "$real" "${real#/usr}"; do
        dpkg -S "$candidate" 2>/dev/null | head -1 | cut -d: -f1 | grep . && return 0
    done
    return 0
}
# Each library the binary names itself (NEEDED), by its Debian package.
for soname in $(objdump -p "$BIN" | awk '/NEEDED/ { print $2 }'); do
    # "name => path (address)", or for the loader "path (address)".
    path=$(awk -v name="$soname" '$1 == name { print $3 }
        substr($1, length($1) - length(name)) == "/" name { print $1 }' "$WORK/ldd.txt" | head -1)
    if [[ -z $path ]]; then fail "ldd does not list $soname"; continue; fi
    owner=$(owner_of "$path")
    if [[ -z $owner ]]; then fail "$soname ($path) belongs to no Debian package"; continue; fi
    if [[ ", $DEPENDS" == *", $owner "* || ", $DEPENDS" == *", $owner,"* || ", $DEPENDS" == *", $owner" ]]; then
        pass "$soname: $owner is in Depends:"
    else
        fail "$soname: $owner is not in Depends:"
    fi
    check "$soname: $owner is listed in the copyright file" \
        awk -v owner="$owner" '/^   [a-z]/ && $1 == owner { found = 1 } END { exit !found }' \
        "$ROOT/usr/share/doc/flickr/copyright"
done

# --- the binary against its own sandbox -------------------------------------------
clean "$BIN" sandbox --port 0 >"$WORK/sandbox.out" 2>"$WORK/sandbox.err" &
SANDBOX_PID=$!
for _ in $(seq 600); do
    grep -q "^listening on " "$WORK/sandbox.out" 2>/dev/null && break
    kill -0 "$SANDBOX_PID" 2>/dev/null || break
    sleep 0.1
done
SANDBOX_URL=$(sed -nE '1s/^listening on (http:[^ ]+).*/\1/p' "$WORK/sandbox.out")
if [[ -z $SANDBOX_URL ]]; then
    fail "flickr sandbox --port 0 did not say where it listens: $(head -c 400 "$WORK/sandbox.err")"
else
    pass "flickr sandbox listens at $SANDBOX_URL"
    clean "$BIN" search kittens --json --api-url "$SANDBOX_URL/services/rest/" \
        >"$WORK/search.json" 2>"$WORK/search.err"
    status=$?
    check "flickr search kittens --json against it exits 0 (got $status) $(head -c 300 "$WORK/search.err")" \
        test "$status" -eq 0
    check "its JSON lines are 30 Flickr photos with titles, from that sandbox" \
        python3 - "$WORK/search.json" "$SANDBOX_URL" <<'EOF'
import json, sys
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
photos = [json.loads(line) for line in lines]
problems = [f"line {i + 1}: {p}" for i, p in enumerate(photos)
            if p.get("provider") != "flickr" or p.get("index") != i + 1 or not p.get("id")
            or not p.get("title") or not str(p.get("thumbnail_url", "")).startswith(sys.argv[2] + "/")]
if len(photos) != 30 or problems:
    print(f"   {len(photos)} lines; {problems[:2]}")
    sys.exit(1)
EOF
    THUMBNAIL=$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())["thumbnail_url"])' \
        "$WORK/search.json" 2>/dev/null)
    check "the first photo's thumbnail is a JPEG the sandbox serves" \
        bash -c "python3 -c 'import sys,urllib.request; sys.stdout.buffer.write(urllib.request.urlopen(sys.argv[1]).read()[:3])' '$THUMBNAIL' | od -An -tx1 | grep -q 'ff d8 ff'"
fi

# --- man page, completions ----------------------------------------------------------
MAN_WARNINGS=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$ROOT/usr/share/man/man1/flickr.1.gz" 2>&1 >"$WORK/man.txt")
check "man flickr renders without a warning${MAN_WARNINGS:+: $MAN_WARNINGS}" test -z "$MAN_WARNINGS"
check "the man page documents the prompt's /help list and the environment" \
    bash -c "grep -q '^COMMANDS AT THE PROMPT' '$WORK/man.txt' && grep -q '/quit' '$WORK/man.txt' && grep -q '^ENVIRONMENT' '$WORK/man.txt' && grep -q 'FLICKR_API_KEY' '$WORK/man.txt'"
check "bash completion parses and completes flickr's subcommands" \
    bash -c "bash -n '$ROOT/usr/share/bash-completion/completions/flickr' && grep -q 'sandbox' '$ROOT/usr/share/bash-completion/completions/flickr'"
check "zsh and fish completions are there" \
    test -s "$ROOT/usr/share/zsh/vendor-completions/_flickr" -a -s "$ROOT/usr/share/fish/vendor_completions.d/flickr.fish"

# --- the tarball: the same files -------------------------------------------------------
dpkg-deb -c "$DEB" | awk '{ print $NF }' | grep -v '/$' | sed 's|^\./usr/||' \
    | grep -v '^share/lintian/' | sort >"$WORK/deb-files.txt"
tar -tzf "$TARBALL" | grep -v '/$' | sed "s|^flickr-$PACKAGE_VERSION/||" | sort >"$WORK/tar-files.txt"
check "the tarball holds the .deb's files under flickr-$PACKAGE_VERSION/" \
    diff -u "$WORK/deb-files.txt" "$WORK/tar-files.txt"

# --- lintian ---------------------------------------------------------------------------
# Errors, warnings and overridden tags in full; informational tags counted
# (most are spellings lintian guesses at in the libraries' strings).
lintian --display-info --show-overrides --color never "$DEB" >"$WORK/lintian.txt" 2>&1
grep -E '^[EWO]: ' "$WORK/lintian.txt" | sed 's/^/   lintian: /' || true
ERRORS=$(grep -c '^E: ' "$WORK/lintian.txt")
WARNINGS=$(grep -c '^W: ' "$WORK/lintian.txt")
INFO=$(grep -c '^I: ' "$WORK/lintian.txt")
OVERRIDDEN=$(grep -c '^O: ' "$WORK/lintian.txt")
echo "   lintian: $ERRORS errors, $WARNINGS warnings, $INFO informational, $OVERRIDDEN overridden (with the reason in the package)"
check "lintian reports no error" test "$ERRORS" -eq 0

echo "package: $PASSED passed, $FAILED failed"
[[ $FAILED -eq 0 ]]
