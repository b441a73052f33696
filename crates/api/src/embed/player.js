// The embedded player (crate::embed): plays the post's tracks in a frame on another site. It
// streams the first rendition the browser plays (Opus, then AAC), else the original; draws the
// waveform from the peaks the server measured; seeks by click, drag or keys on it; plays the
// next track when one ends.
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('tracks').textContent || '[]');
  if (!data.length) return;
  var audio = new Audio();
  audio.preload = 'none';
  var $ = function (s) { return document.querySelector(s); };
  var play = $('.play'), wave = $('.wave'), canvas = $('.wave canvas');
  var at = $('.at'), length = $('.length'), titleEl = $('.title'), artistEl = $('.artist');
  var rows = document.querySelectorAll('.tracks button');
  var current = 0, loaded = -1, peaks = null;

  function clock(s) {
    s = Math.max(0, Math.floor(s || 0));
    return Math.floor(s / 60) + ':' + String(s % 60).padStart(2, '0');
  }
  function decode(b64) {
    if (!b64) return null;
    try {
      var raw = atob(b64), out = new Int8Array(raw.length);
      for (var i = 0; i < raw.length; i++) out[i] = (raw.charCodeAt(i) << 24) >> 24;
      return out;
    } catch (e) { return null; }
  }
  function source(t) {
    for (var i = 0; i < t.streams.length; i++) {
      if (audio.canPlayType(t.streams[i].type)) return t.streams[i].url;
    }
    return t.file;
  }
  function duration() {
    var d = audio.duration;
    return loaded === current && isFinite(d) && d > 0 ? d : data[current].seconds;
  }
  function color(name) { return getComputedStyle(document.documentElement).getPropertyValue(name).trim(); }
  function draw() {
    var w = canvas.clientWidth, h = canvas.clientHeight, r = window.devicePixelRatio || 1;
    if (!w || !h) return;
    if (canvas.width !== Math.round(w * r)) { canvas.width = Math.round(w * r); canvas.height = Math.round(h * r); }
    var g = canvas.getContext('2d');
    g.setTransform(r, 0, 0, r, 0, 0);
    g.clearRect(0, 0, w, h);
    var done = loaded === current ? audio.currentTime / duration() : 0;
    var bars = Math.max(1, Math.floor(w / 3)), pairs = peaks ? peaks.length / 2 : 0;
    var played = color('--accent'), rest = color('--wave');
    for (var i = 0; i < bars; i++) {
      var lo = -24, hi = 24;
      if (pairs) {
        var from = Math.floor((i / bars) * pairs), to = Math.max(from + 1, Math.floor(((i + 1) / bars) * pairs));
        lo = 0; hi = 0;
        for (var j = from; j < to && j < pairs; j++) { lo = Math.min(lo, peaks[2 * j]); hi = Math.max(hi, peaks[2 * j + 1]); }
      }
      var top = h / 2 - (Math.max(hi, 4) / 127) * (h / 2), bottom = h / 2 - (Math.min(lo, -4) / 127) * (h / 2);
      g.fillStyle = i / bars < done ? played : rest;
      g.fillRect(i * 3, top, 2, Math.max(1, bottom - top));
    }
  }
  function show() {
    var t = data[current], d = duration(), now = loaded === current ? audio.currentTime : 0;
    titleEl.textContent = t.title;
    artistEl.textContent = t.artist;
    at.textContent = clock(now);
    length.textContent = clock(d);
    play.setAttribute('aria-pressed', String(loaded === current && !audio.paused));
    play.setAttribute('aria-label', (loaded === current && !audio.paused ? 'Pause ' : 'Play ') + t.title);
    wave.setAttribute('aria-label', 'Seek ' + t.title);
    wave.setAttribute('aria-valuemax', String(Math.round(d)));
    wave.setAttribute('aria-valuenow', String(Math.round(now)));
    wave.setAttribute('aria-valuetext', clock(now) + ' of ' + clock(d));
    for (var i = 0; i < rows.length; i++) rows[i].setAttribute('aria-current', String(i === current));
    draw();
  }
  function select(i) {
    current = i;
    peaks = decode(data[i].peaks);
    var cover = $('.cover');
    if (cover && cover.tagName === 'IMG' && data[i].cover) cover.src = data[i].cover;
    show();
  }
  function start(seconds) {
    if (loaded !== current) {
      audio.src = source(data[current]);
      loaded = current;
    }
    if (seconds !== undefined) audio.currentTime = seconds;
    var p = audio.play();
    if (p && p.catch) p.catch(function () { show(); });
    show();
  }
  function seekTo(fraction) {
    var s = Math.min(1, Math.max(0, fraction)) * duration();
    if (loaded === current) { audio.currentTime = s; show(); } else start(s);
  }

  play.addEventListener('click', function () {
    if (loaded === current && !audio.paused) audio.pause(); else start();
  });
  var dragging = false;
  function fractionOf(e) { var b = wave.getBoundingClientRect(); return (e.clientX - b.left) / b.width; }
  wave.addEventListener('pointerdown', function (e) { dragging = true; wave.setPointerCapture(e.pointerId); seekTo(fractionOf(e)); });
  wave.addEventListener('pointermove', function (e) { if (dragging) seekTo(fractionOf(e)); });
  wave.addEventListener('pointerup', function () { dragging = false; });
  wave.addEventListener('keydown', function (e) {
    var d = duration(), now = loaded === current ? audio.currentTime : 0;
    var to = { ArrowRight: now + 5, ArrowUp: now + 5, ArrowLeft: now - 5, ArrowDown: now - 5, Home: 0, End: d }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    seekTo(to / d);
  });
  for (var i = 0; i < rows.length; i++) {
    rows[i].addEventListener('click', function (e) {
      select(Number(e.currentTarget.getAttribute('data-track')));
      start(0);
    });
  }
  ['play', 'pause', 'durationchange', 'seeked'].forEach(function (type) { audio.addEventListener(type, show); });
  var pending = false;
  audio.addEventListener('timeupdate', function () {
    if (pending) return;
    pending = true;
    requestAnimationFrame(function () { pending = false; show(); });
  });
  audio.addEventListener('ended', function () {
    if (current + 1 < data.length) { select(current + 1); start(0); } else show();
  });
  window.addEventListener('resize', draw);
  select(0);
})();
