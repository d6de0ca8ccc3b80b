/* global document, window */
/*
 * Runs as the public gallery's page is read, right after the first screen the server drew in it
 * (server/gallery/gallery-shell.ts), before the app's bundle:
 * - gives their thumbnail to the tiles on screen, and to them only (a phone asks for 27, not 72);
 * - hands the first page of photos, inlined in the page, to the gallery store
 *   (renderer/gallery/services/gallery.service.ts), with the thumbnails already asked for;
 * - remembers a tap on a tile before the app is there, so that the app opens that photo;
 * - loads the app's script once those thumbnails are in (scripts/build/gallery-first-screen.ts
 *   took it out of the page): run earlier, it held the processor the thumbnails needed.
 * The size of the later pages is measured here too, with PhotoGrid's compact geometry.
 */
(function () {
  'use strict';
  // However slow the thumbnails, the app (the lightbox, the live photos) starts after this long.
  var APP_WAIT_MS = 1500;
  var self = document.currentScript;
  var PAGE_PADDING = 12;
  var HEADER = 50;
  // PhotoGrid's compact columns: 110 px at least on a phone, 180 px from 600 px of viewport up.
  var MIN_TILE = window.innerWidth >= 600 ? 180 : 110;
  var GAP = 4;
  var MAX_LIMIT = 200;
  var width = document.documentElement.clientWidth || window.innerWidth;
  var height = window.innerHeight;
  var inner = width - PAGE_PADDING;
  var columns = Math.max(1, Math.floor((inner + GAP) / (MIN_TILE + GAP)));
  var rowHeight = (inner - (columns - 1) * GAP) / columns / 1.5 + GAP;
  var visible = columns * Math.max(1, Math.ceil((height - HEADER) / rowHeight));

  var page = null;
  var data = document.getElementById('boothdeck-first-page');
  if (data) {
    try {
      page = JSON.parse(data.textContent || 'null');
    } catch (e) {
      page = null;
    }
  }

  // The first tiles' thumbnails are named in the page; those of the other tiles on screen are
  // asked here. `onScreen` are the images the app waits for.
  var shown = [];
  var onScreen = [];
  var images = document.querySelectorAll('[data-shell] img');
  for (var i = 0; i < images.length; i++) {
    var img = images[i];
    var below = img.getBoundingClientRect().top >= height;
    var src = img.getAttribute('data-src');
    if (src === null) {
      shown.push(img.getAttribute('src'));
      if (!below) onScreen.push(img);
      continue;
    }
    // Tiles come in reading order: the first one below the screen ends the screen.
    if (below) break;
    // An image is asked for at low priority, which Chromium holds back until the first paint:
    // these are what the first paint is for.
    img.fetchPriority = 'high';
    img.src = src;
    shown.push(src);
    onScreen.push(img);
  }

  var boot = {
    // The screen and one more below it, for each page after the first.
    limit: Math.min(MAX_LIMIT, visible * 2),
    page: Promise.resolve(page),
    shown: shown,
    tapped: null,
  };
  document.addEventListener(
    'click',
    function (event) {
      var target = event.target;
      var tile = target && target.closest ? target.closest('[data-shell] [data-photo-id]') : null;
      if (tile) boot.tapped = tile.getAttribute('data-photo-id');
    },
    true,
  );
  window.__boothdeckFirstPage = boot;

  var app = self && self.getAttribute('data-app');
  if (!app) return;
  var started = false;
  function startApp() {
    if (started) return;
    started = true;
    var preloads = (self.getAttribute('data-preload') || '').split(' ');
    for (var p = 0; p < preloads.length; p++) {
      if (!preloads[p]) continue;
      var link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = preloads[p];
      document.head.appendChild(link);
    }
    var script = document.createElement('script');
    script.type = 'module';
    script.crossOrigin = '';
    script.src = app;
    document.head.appendChild(script);
  }
  var pending = 0;
  function settled() {
    if (--pending === 0) startApp();
  }
  // The thumbnails on screen, not those named below it (a phone's last nine of 36).
  for (var j = 0; j < onScreen.length; j++) {
    var image = onScreen[j];
    if (image.complete) continue;
    pending++;
    image.addEventListener('load', settled);
    image.addEventListener('error', settled);
  }
  if (pending === 0) startApp();
  else setTimeout(startApp, APP_WAIT_MS);
})();
