#!/usr/bin/env bash
# Seed corpora for the fuzz targets, made here rather than committed (the repository stays
# lean): small real files of every accepted kind, made with ffmpeg and python3, written to
# fuzz/corpus/<target>/seed-* (libFuzzer adds what it finds beside them; the folder is not
# committed). Files already there are kept. Without ffmpeg the media seeds are skipped, and
# the image, audio and sniff targets start from nothing.
set -euo pipefail
cd "$(dirname "$0")"

corpus=corpus
for target in musicxml mxl sniff image audio audio_strip mentions multipart; do mkdir -p "$corpus/$target"; done

# --- text seeds ---------------------------------------------------------------------------
score='<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<!DOCTYPE score-partwise PUBLIC "-//Recordare//DTD MusicXML 4.0 Partwise//EN" "http://www.musicxml.org/dtds/partwise.dtd">
<score-partwise version="4.0">
  <work><work-title>Blue &amp; Green</work-title></work>
  <movement-title>First</movement-title>
  <identification><creator type="composer">Anna &#233;</creator><creator type="lyricist">B</creator></identification>
  <part-list><score-part id="P1"><part-name>Piano</part-name></score-part></part-list>
  <!-- a comment -->
  <part id="P1"><measure number="1"><attributes><divisions>1</divisions><key><fifths>0</fifths></key>
  <time><beats>4</beats><beat-type>4</beat-type></time><clef><sign>G</sign><line>2</line></clef></attributes>
  <note><pitch><step>C</step><octave>4</octave></pitch><duration>4</duration><type>whole</type></note>
  </measure></part>
</score-partwise>'
timewise='<?xml version="1.0"?><score-timewise version="3.1"><movement-title>T</movement-title><part-list/><measure number="1"/></score-timewise>'
printf '%s\n' "$score" > "$corpus/musicxml/seed-partwise.musicxml"
printf '%s' "$timewise" > "$corpus/musicxml/seed-timewise.musicxml"
printf '%s\n' "$score" | iconv -f UTF-8 -t UTF-16 > "$corpus/musicxml/seed-utf16.musicxml" 2>/dev/null || true

python3 - "$corpus" "$score" <<'EOF'
import io, sys, zipfile
corpus, score = sys.argv[1], sys.argv[2]
container = ('<?xml version="1.0" encoding="UTF-8"?><container><rootfiles>'
             '<rootfile full-path="score.xml" media-type="application/vnd.recordare.musicxml+xml"/>'
             '</rootfiles></container>')
for name, method in [("deflated", zipfile.ZIP_DEFLATED), ("stored", zipfile.ZIP_STORED)]:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", method) as z:
        z.writestr("mimetype", "application/vnd.recordare.musicxml")
        z.writestr("META-INF/container.xml", container)
        z.writestr("score.xml", score)
    data = out.getvalue()
    open(f"{corpus}/mxl/seed-{name}.mxl", "wb").write(data)
    open(f"{corpus}/sniff/seed-{name}.mxl", "wb").write(data[:4096])
EOF
cp "$corpus/musicxml/seed-partwise.musicxml" "$corpus/sniff/seed-score.musicxml"

printf '@ana hi @Bob_1 and @bo x@mail.com @ana\n@jo-el! @@x\t@zed_zed' > "$corpus/mentions/seed-1"
printf 'Thanks @caf\xc3\xa9 and @\xe2\x80\x8bbob, @long_login_of_twenty1 @ok' > "$corpus/mentions/seed-2"

# The multipart target's input: the boundary, a newline, one byte for the chunk size, the body.
{
  printf 'XyZ\n\x07'
  printf -- '--XyZ\r\nContent-Disposition: form-data; name="caption"\r\n\r\nhello\r\n'
  printf -- '--XyZ\r\nContent-Disposition: form-data; name="titles"\r\n\r\nA\r\n'
  printf -- '--XyZ\r\nContent-Disposition: form-data; name="files"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG\r\n\x1a\nDATA\r\n'
  printf -- '--XyZ\r\nContent-Disposition: form-data; name="avatar"; filename="b.gif"\r\n\r\nGIF89a\r\n'
  printf -- '--XyZ\r\nContent-Disposition: form-data; name="other"\r\n\r\nskipped\r\n'
  printf -- '--XyZ--\r\n'
} > "$corpus/multipart/seed-form"
{
  printf 'b\n\x00'
  printf -- '--b\r\nContent-Disposition: form-data; name="files"; filename="x.exe"\r\n\r\nMZ\x90\x00\r\n--b--\r\n'
} > "$corpus/multipart/seed-refused"

# --- media seeds ----------------------------------------------------------------------------
if ! command -v ffmpeg >/dev/null 2>&1; then
  echo "*** fuzz/seeds.sh: no ffmpeg: the image, audio and sniff targets start without media seeds"
  exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ff() { ffmpeg -nostdin -hide_banner -v error -y "$@"; }
# Each maker may fail on an ffmpeg without that encoder: the seed is then skipped.
try() { "$@" 2>/dev/null || echo "*** fuzz/seeds.sh: skipped a seed: ${*: -1}"; }

# Pictures: small, and a few wider than a feed copy (640) so the display copy is made.
pic() { try ff -f lavfi -i "testsrc2=size=$1:rate=1" -frames:v 1 "${@:2}"; }
pic 16x12 -pix_fmt rgb24 "$tmp/rgb.png"
pic 700x6 -pix_fmt rgba "$tmp/wide-rgba.png"
pic 650x4 -pix_fmt rgb48be "$tmp/wide-16bit.png"
pic 16x12 -pix_fmt pal8 "$tmp/palette.png"
pic 700x8 -q:v 5 "$tmp/wide.jpg"
pic 16x16 -q:v 5 -pix_fmt yuvj444p "$tmp/small.jpg"
pic 24x8 -c:v libwebp "$tmp/small.webp"
try ff -f lavfi -i "testsrc2=size=12x8:rate=5" -frames:v 3 -loop 0 "$tmp/anim.gif"
# A JPEG with an EXIF orientation, as phones write them.
if [ -f "$tmp/wide.jpg" ]; then
  python3 - "$tmp/wide.jpg" "$tmp/exif.jpg" <<'EOF'
import struct, sys
data = open(sys.argv[1], "rb").read()
# APP1 Exif, big-endian TIFF with one IFD entry: Orientation (0x0112) = 6 (a quarter turn).
tiff = b"MM\x00\x2a" + struct.pack(">I", 8) + struct.pack(">H", 1) + struct.pack(">HHII", 0x0112, 3, 1, 6 << 16) + b"\0\0\0\0"
app1 = b"Exif\0\0" + tiff
open(sys.argv[2], "wb").write(data[:2] + b"\xff\xe1" + struct.pack(">H", len(app1) + 2) + app1 + data[2:])
EOF
fi
for f in "$tmp"/*.png "$tmp"/*.jpg "$tmp"/*.gif "$tmp"/*.webp; do
  [ -f "$f" ] || continue
  cp "$f" "$corpus/image/seed-$(basename "$f")"
  head -c 4096 "$f" > "$corpus/sniff/seed-$(basename "$f")"
done

# Audio: a tenth of a second each, with tags, and an MP3 and a FLAC carrying a cover.
tone=(-f lavfi -i "sine=frequency=440:sample_rate=8000:duration=0.1")
tags=(-metadata title="Blue in Green" -metadata artist="Anna")
try ff "${tone[@]}" -c:a pcm_s16le "$tmp/a.wav"
try ff "${tone[@]}" "${tags[@]}" -c:a libmp3lame -b:a 32k "$tmp/a.mp3"
try ff "${tone[@]}" "${tags[@]}" -c:a flac "$tmp/a.flac"
try ff "${tone[@]}" "${tags[@]}" -c:a libvorbis "$tmp/a.ogg"
try ff "${tone[@]}" "${tags[@]}" -c:a aac -b:a 16k "$tmp/a.m4a"
try ff "${tone[@]}" -c:a aac -b:a 16k -f adts "$tmp/a.aac"
if [ -f "$tmp/rgb.png" ]; then
  cover=(-map 0:a -map 1:v -c:v copy -disposition:v attached_pic -metadata:s:v comment="Cover (front)")
  try ff "${tone[@]}" -i "$tmp/rgb.png" "${cover[@]}" "${tags[@]}" -c:a libmp3lame -b:a 32k -id3v2_version 3 "$tmp/cover.mp3"
  try ff "${tone[@]}" -i "$tmp/rgb.png" "${cover[@]}" "${tags[@]}" -c:a flac "$tmp/cover.flac"
fi
for f in "$tmp"/*.wav "$tmp"/*.mp3 "$tmp"/*.flac "$tmp"/*.ogg "$tmp"/*.m4a "$tmp"/*.aac; do
  [ -f "$f" ] || continue
  cp "$f" "$corpus/audio/seed-$(basename "$f")"
  cp "$f" "$corpus/audio_strip/seed-$(basename "$f")"
  head -c 4096 "$f" > "$corpus/sniff/seed-$(basename "$f")"
done

# Videos, for the sniffer only: their first bytes.
for ext in mp4 mov mkv webm avi; do
  try ff -f lavfi -i "testsrc2=size=16x16:rate=5" -frames:v 2 "$tmp/v.$ext"
  [ -f "$tmp/v.$ext" ] && head -c 4096 "$tmp/v.$ext" > "$corpus/sniff/seed-video.$ext"
done
exit 0
