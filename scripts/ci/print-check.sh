#!/usr/bin/env bash
# Checks the pictures and booklets of /render and /booklet with real tools, against the
# real release server:
#
#   1. installs qpdf and poppler-utils with apt when missing;
#   2. builds the release binary (honours CARGO_TARGET_DIR) and starts it on a free
#      127.0.0.1 port (killed on exit);
#   3. renders a classic board and a killer as SVG, PNG and PDF: the content types, the
#      PNG's signature and size (`file`-free: its IHDR read with od), `qpdf --check` and
#      `pdftoppm` on the PDF;
#   4. fetches a booklet of 10 puzzles, 4 to a page, solutions at the back: `qpdf --check`,
#      `pdfinfo` counts ceil(10/4) + ceil(10/6) = 5 pages, `pdftotext` finds every puzzle
#      number, its difficulty, the solutions and "Page n of 5", `pdftoppm` draws a page;
#   5. the same seed again gives the same bytes, and so does the `booklet` command;
#   6. the round trip: booklet pages of one puzzle each, drawn by `pdftoppm` at a few
#      resolutions, and a PNG from /render, read back by /scan as the same givens.
#
# Prints PASS/FAIL per check and a closing "N passed, N failed" line; a minute or so once
# the binary is built.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/print-check.XXXXXX")"
# shellcheck source=../lib/server.sh
source "$ROOT/scripts/lib/server.sh"

passed=0
failed=0
pass() { passed=$((passed + 1)); printf 'PASS  %s\n' "$*"; }
fail() { failed=$((failed + 1)); printf 'FAIL  %s\n' "$*"; }
check() { # name, command...
    local name=$1; shift
    if "$@" >"$WORK/check.log" 2>&1; then pass "$name"; else fail "$name"; sed 's/^/      /' "$WORK/check.log" | tail -n 15; fi
}

finish() {
    local rc=$?
    stop_release_server
    if [ "$failed" -gt 0 ] && [ -s "$WORK/server.log" ]; then
        echo "server log (last 20 lines):" >&2
        tail -n 20 "$WORK/server.log" >&2 || true
    fi
    rm -rf "$WORK"
    echo "print: $passed passed, $failed failed"
    [ "$failed" -eq 0 ] && [ "$rc" -eq 0 ] || exit 1
}
trap finish EXIT
trap 'exit 130' INT TERM

if ! command -v qpdf >/dev/null || ! command -v pdftoppm >/dev/null; then
    apt-get install -y -qq qpdf poppler-utils >/dev/null 2>&1 ||
        { apt-get update -qq && apt-get install -y -qq qpdf poppler-utils >/dev/null; }
fi

build_release "$ROOT"
start_release_server "$WORK/server.log"
URL="$SERVER_URL"

PUZZLE='53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79'
KILLER_RULES='{"cages":[{"sum":17,"cells":[{"row":0,"col":0},{"row":0,"col":1}]},{"sum":9,"cells":[{"row":1,"col":0},{"row":2,"col":0},{"row":2,"col":1}]}],"diagonals":["main"]}'

# POSTs a /render body; the picture goes to $WORK/$2, the content type is printed.
render() { # body, file
    curl -sS -o "$WORK/$2" -w '%{http_code} %{content_type}' \
        -H 'content-type: application/json' -d "$1" "$URL/render"
}

# The width and height of a PNG, from its IHDR chunk.
png_size() {
    local words
    words=$(od -An -tu1 -j16 -N8 "$1" | xargs)
    read -r a b c d e f g h <<<"$words"
    echo "$(((a << 24) | (b << 16) | (c << 8) | d))x$(((e << 24) | (f << 16) | (g << 8) | h))"
}

pdf_ok() { # file, pages expected
    qpdf --check "$1" >/dev/null || return 1
    local pages
    pages=$(pdfinfo "$1" | awk '/^Pages:/ {print $2}')
    [ "$pages" = "$2" ] || { echo "pdfinfo: $pages pages, expected $2"; return 1; }
    pdftoppm -r 50 -f 1 -l 1 -png "$1" "$WORK/page" && [ -s "$WORK/page-1.png" ] || return 1
    [ "$(head -c 8 "$WORK/page-1.png" | od -An -tx1 | xargs)" = "89 50 4e 47 0d 0a 1a 0a" ]
}

for board in classic killer; do
    if [ "$board" = classic ]; then
        puzzle="\"board\":\"$PUZZLE\",\"show\":\"both\""
    else
        puzzle="\"board\":\"$(printf '.%.0s' $(seq 81))\",\"rules\":$KILLER_RULES"
    fi
    answer=$(render "{$puzzle,\"format\":\"svg\",\"title\":\"A $board sheet\"}" "$board.svg")
    check "render $board: svg answers 200 image/svg+xml" test "$answer" = "200 image/svg+xml"
    check "render $board: the svg holds its title" grep -q ">A $board sheet</text>" "$WORK/$board.svg"
    answer=$(render "{$puzzle,\"format\":\"png\",\"size_px\":500}" "$board.png")
    check "render $board: png answers 200 image/png" test "$answer" = "200 image/png"
    check "render $board: png signature" \
        test "$(head -c 8 "$WORK/$board.png" | od -An -tx1 | xargs)" = "89 50 4e 47 0d 0a 1a 0a"
    size=$(png_size "$WORK/$board.png")
    check "render $board: png is 500 pixels wide ($size)" test "${size%x*}" = 500
    answer=$(render "{$puzzle,\"format\":\"pdf\"}" "$board.pdf")
    check "render $board: pdf answers 200 application/pdf" test "$answer" = "200 application/pdf"
    check "render $board: pdf passes qpdf --check, has 1 page, renders with pdftoppm" \
        pdf_ok "$WORK/$board.pdf" 1
done

BOOKLET="count=10&seed=2026&difficulty=medium&per_page=4&paper=a4"
status=$(curl -sS -o "$WORK/booklet.pdf" -w '%{http_code} %{content_type}' "$URL/booklet?$BOOKLET")
check "booklet: answers 200 application/pdf" test "$status" = "200 application/pdf"
check "booklet: qpdf --check, 5 pages (3 of puzzles, 2 of solutions), pdftoppm" \
    pdf_ok "$WORK/booklet.pdf" 5
pdftotext -layout "$WORK/booklet.pdf" "$WORK/booklet.txt"
words_found() {
    local missing=0
    for n in $(seq 1 10); do
        grep -q "Puzzle $n · Medium, rating" "$WORK/booklet.txt" || { echo "no heading of puzzle $n"; missing=1; }
        grep -q "Solution $n\b" "$WORK/booklet.txt" || { echo "no solution $n"; missing=1; }
    done
    for n in $(seq 1 5); do
        grep -q "Page $n of 5" "$WORK/booklet.txt" || { echo "no page number $n"; missing=1; }
    done
    return "$missing"
}
check "booklet: pdftotext finds puzzles 1-10 with their difficulty, solutions 1-10, pages 1-5" words_found
curl -sS -o "$WORK/again.pdf" "$URL/booklet?$BOOKLET"
check "booklet: the same seed gives the same bytes" cmp "$WORK/booklet.pdf" "$WORK/again.pdf"
"$SERVER_BIN" booklet --count 10 --seed 2026 --difficulty medium --per-page 4 --paper a4 \
    --output "$WORK/command.pdf" 2>/dev/null
check "booklet: the booklet command writes the same bytes" cmp "$WORK/booklet.pdf" "$WORK/command.pdf"

status=$(curl -sS -o "$WORK/large.pdf" -w '%{http_code}' \
    "$URL/booklet?count=5&seed=1&per_page=6&paper=letter&large_print=true&solutions=back")
check "booklet (large print, letter): 200, 1 page of puzzles and 2 of solutions" \
    bash -c "[ $status = 200 ] && qpdf --check '$WORK/large.pdf' >/dev/null && [ \"\$(pdfinfo '$WORK/large.pdf' | awk '/^Pages:/ {print \$2}')\" = 3 ]"

# The round trip: what the service prints, the service reads back.
ROUND_TRIP=('..76...2...1..8..39..2...6.8..3.......9.1...6.25...7...1.8........15.2...3...4..9'
    '.83.2..9....8..1...293....8....987...7.....6...674....3....698...2..5....1..3.54.'
    "$PUZZLE")
scanned_givens() { # image file: the board /scan reads in it
    curl -sS -H 'content-type: image/png' --data-binary "@$1" "$URL/scan" |
        python3 -c 'import json, sys; print(json.load(sys.stdin).get("board"))'
}
boards_json=$(printf '"%s",' "${ROUND_TRIP[@]}")
for large in false true; do
    status=$(curl -sS -o "$WORK/trip.pdf" -w '%{http_code}' -H 'content-type: application/json' \
        -d "{\"boards\":[${boards_json%,}],\"per_page\":1,\"large_print\":$large,\"solutions\":\"none\"}" \
        "$URL/booklet")
    check "round trip: booklet of ${#ROUND_TRIP[@]} pages (large print $large) answers 200" test "$status" = 200
    for dpi in 60 100 150; do
        pdftoppm -r "$dpi" -png "$WORK/trip.pdf" "$WORK/trip-$dpi"
        for page in $(seq 1 ${#ROUND_TRIP[@]}); do
            expected=${ROUND_TRIP[$((page - 1))]}
            # Fewer than ten pages: pdftoppm numbers them without padding.
            read_back=$(scanned_givens "$WORK/trip-$dpi-$page.png")
            check "round trip: page $page (large print $large) at $dpi dpi scans back to its givens" \
                test "$read_back" = "$expected"
        done
    done
done
for board in "${ROUND_TRIP[@]}"; do
    for size_px in 300 900; do
        render "{\"board\":\"$board\",\"format\":\"png\",\"size_px\":$size_px}" trip.png >/dev/null
        read_back=$(scanned_givens "$WORK/trip.png")
        check "round trip: /render png of ${board:0:12}... at $size_px px scans back to its givens" \
            test "$read_back" = "$board"
    done
done
