//! Real files for tests of other crates, made in code (no fixtures on disk).

use std::sync::OnceLock;

/// A valid PNG of `width`×1 RGBA pixels (correct CRCs and zlib stream), with a `tEXt` chunk
/// carrying `text` when given — metadata that must not survive an upload.
pub fn png(width: u32, text: Option<&str>) -> Vec<u8> {
    fn crc(data: &[u8]) -> u32 {
        let mut c = 0xFFFF_FFFFu32;
        for &b in data {
            c ^= u32::from(b);
            for _ in 0..8 {
                c = if c & 1 != 0 { 0xEDB8_8320 ^ (c >> 1) } else { c >> 1 };
            }
        }
        !c
    }
    fn chunk(kind: &[u8], data: &[u8]) -> Vec<u8> {
        let mut body = kind.to_vec();
        body.extend_from_slice(data);
        let mut out = (data.len() as u32).to_be_bytes().to_vec();
        out.extend_from_slice(&body);
        out.extend_from_slice(&crc(&body).to_be_bytes());
        out
    }
    let mut raw = vec![0u8]; // filter byte of the one scanline
    for _ in 0..width {
        raw.extend_from_slice(&[200, 30, 120, 255]);
    }
    // zlib: one stored (uncompressed) block, then the Adler-32 of the data.
    let len = raw.len() as u16;
    let mut z = vec![0x78, 0x01, 1];
    z.extend_from_slice(&len.to_le_bytes());
    z.extend_from_slice(&(!len).to_le_bytes());
    z.extend_from_slice(&raw);
    let (mut a, mut b) = (1u32, 0u32);
    for &x in &raw {
        a = (a + u32::from(x)) % 65521;
        b = (b + a) % 65521;
    }
    z.extend_from_slice(&((b << 16) | a).to_be_bytes());
    let mut ihdr = width.to_be_bytes().to_vec();
    ihdr.extend_from_slice(&[0, 0, 0, 1, 8, 6, 0, 0, 0]);
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    png.extend(chunk(b"IHDR", &ihdr));
    if let Some(text) = text {
        png.extend(chunk(b"tEXt", format!("Comment\0{text}").as_bytes()));
    }
    png.extend(chunk(b"IDAT", &z));
    png.extend(chunk(b"IEND", &[]));
    png
}

/// A baseline JPEG of `width`×`height` as far as its markers go (SOI, JFIF, SOF0, one scan,
/// EOI): enough for the parts that read JPEG structure, which is all the server does with one.
pub fn jpeg(width: u16, height: u16) -> Vec<u8> {
    let mut j = vec![0xFF, 0xD8, 0xFF, 0xE0, 0, 16];
    j.extend_from_slice(b"JFIF\0\x01\x01\0\0\x01\0\x01\0\0");
    j.extend_from_slice(&[0xFF, 0xC0, 0, 11, 8]);
    j.extend_from_slice(&height.to_be_bytes());
    j.extend_from_slice(&width.to_be_bytes());
    j.extend_from_slice(&[1, 1, 0x11, 0]);
    j.extend_from_slice(&[0xFF, 0xDA, 0, 8, 1, 1, 0, 0, 0x3F, 0]);
    j.extend_from_slice(&[0x12, 0x34, 0xFF, 0x00, 0x56, 0xFF, 0xD9]);
    j
}

/// A real, decodable baseline JPEG photo of `width`×`height`: red on the left half, blue on the
/// right, a few hundred KB even when large.
pub fn photo_jpeg(width: u16, height: u16) -> Vec<u8> {
    let half = usize::from(width) / 2;
    let mut row = [220u8, 20, 20].repeat(half);
    row.extend_from_slice(&[20u8, 20, 220].repeat(usize::from(width) - half));
    let rgb = row.repeat(usize::from(height));
    let mut out = Vec::new();
    jpeg_encoder::Encoder::new(&mut out, 80).encode(&rgb, width, height, jpeg_encoder::ColorType::Rgb).expect("a JPEG");
    out
}

/// A real, compressed RGBA PNG of `width`×`height`: opaque green above, transparent below.
pub fn transparent_png(width: u32, height: u32) -> Vec<u8> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, width, height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fast);
    let mut writer = encoder.write_header().expect("a PNG header");
    let mut stream = writer.stream_writer().expect("a PNG stream");
    let opaque = [30u8, 160, 60, 255].repeat(width as usize);
    let clear = vec![0u8; width as usize * 4];
    for y in 0..height {
        std::io::Write::write_all(&mut stream, if y < height / 2 { &opaque } else { &clear }).expect("a row");
    }
    stream.finish().expect("the PNG's end");
    drop(writer);
    out
}

/// A WAV file (16-bit mono PCM at 8 kHz) of a sine tone: `seconds` long, at `hz`, with peaks at
/// `amplitude` of full scale (0.0 to 1.0).
pub fn wav(seconds: f32, hz: f32, amplitude: f32) -> Vec<u8> {
    const RATE: u32 = 8000;
    let samples = (seconds * RATE as f32) as u32;
    let data_len = samples * 2;
    let mut out = Vec::with_capacity(44 + data_len as usize);
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&(36 + data_len).to_le_bytes());
    out.extend_from_slice(b"WAVEfmt ");
    out.extend_from_slice(&16u32.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes()); // PCM
    out.extend_from_slice(&1u16.to_le_bytes()); // mono
    out.extend_from_slice(&RATE.to_le_bytes());
    out.extend_from_slice(&(RATE * 2).to_le_bytes());
    out.extend_from_slice(&2u16.to_le_bytes());
    out.extend_from_slice(&16u16.to_le_bytes());
    out.extend_from_slice(b"data");
    out.extend_from_slice(&data_len.to_le_bytes());
    for i in 0..samples {
        let t = i as f32 / RATE as f32;
        let v = (t * hz * std::f32::consts::TAU).sin() * amplitude * f32::from(i16::MAX);
        out.extend_from_slice(&(v as i16).to_le_bytes());
    }
    out
}

/// A small MusicXML score (partwise, with the DOCTYPE real files carry) titled `title` by
/// `composer`.
pub fn musicxml(title: &str, composer: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<!DOCTYPE score-partwise PUBLIC "-//Recordare//DTD MusicXML 4.0 Partwise//EN" "http://www.musicxml.org/dtds/partwise.dtd">
<score-partwise version="4.0">
  <work><work-title>{title}</work-title></work>
  <identification><creator type="composer">{composer}</creator></identification>
  <part-list><score-part id="P1"><part-name>Piano</part-name></score-part></part-list>
  <part id="P1">
    <measure number="1">
      <attributes><divisions>1</divisions><key><fifths>0</fifths></key><time><beats>4</beats><beat-type>4</beat-type></time><clef><sign>G</sign><line>2</line></clef></attributes>
      <note><pitch><step>C</step><octave>4</octave></pitch><duration>1</duration><type>quarter</type></note>
      <note><pitch><step>E</step><octave>4</octave></pitch><duration>1</duration><type>quarter</type></note>
      <note><pitch><step>G</step><octave>4</octave></pitch><duration>1</duration><type>quarter</type></note>
      <note><pitch><step>C</step><octave>5</octave></pitch><duration>1</duration><type>quarter</type></note>
    </measure>
  </part>
</score-partwise>
"#
    )
}

/// A one-second test-pattern video made by ffmpeg in `container` (`mp4` and `mov`: H.264,
/// `webm`: VP8), carrying a title ([`VIDEO_TITLE`]) and, in `mp4` and `mov`, a place
/// ([`VIDEO_PLACE`], as a phone writes it), or `None` after a loud message when ffmpeg (or its encoder) is missing; under CI a missing
/// ffmpeg fails the test instead (`.ci/run` installs it). Each container is encoded once per
/// test process: the same bytes serve every test that asks (on both backends).
pub fn video(container: &str) -> Option<Vec<u8>> {
    static MP4: OnceLock<Option<Vec<u8>>> = OnceLock::new();
    static MOV: OnceLock<Option<Vec<u8>>> = OnceLock::new();
    static WEBM: OnceLock<Option<Vec<u8>>> = OnceLock::new();
    let (made, codec) = match container {
        "mp4" => (&MP4, "libx264"),
        "mov" => (&MOV, "libx264"),
        "webm" => (&WEBM, "libvpx"),
        other => panic!("no test video in {other:?}: mp4, mov or webm"),
    };
    match made.get_or_init(|| encode(container, codec)) {
        Some(bytes) => Some(bytes.clone()),
        None if crate::ci() => panic!("ffmpeg with {codec} is required to make test videos under CI=true"),
        None => {
            eprintln!("\n!!!!! SKIPPED: ffmpeg with {codec} is not installed; install ffmpeg to test videos !!!!!\n");
            None
        }
    }
}

/// The title every test video carries.
pub const VIDEO_TITLE: &str = "Secret take";
/// The place test videos in MP4 and MOV carry (ISO 6709, as an iPhone writes it).
pub const VIDEO_PLACE: &str = "+48.8577+002.2950/";

fn encode(container: &str, codec: &str) -> Option<Vec<u8>> {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let out = dir.path().join(format!("clip.{container}"));
    let made = std::process::Command::new("ffmpeg")
        .args(["-nostdin", "-hide_banner", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=10"])
        .args(["-t", "1", "-c:v", codec, "-pix_fmt", "yuv420p"])
        .args(["-metadata", &format!("title={VIDEO_TITLE}"), "-metadata", &format!("location={VIDEO_PLACE}")])
        // MP4 writes the place only when asked to (MOV always does).
        .args(if container == "mp4" { &["-movflags", "use_metadata_tags"][..] } else { &[] })
        .arg(&out)
        .status();
    match made {
        Ok(s) if s.success() => Some(std::fs::read(&out).expect("the video ffmpeg made")),
        _ => None,
    }
}
