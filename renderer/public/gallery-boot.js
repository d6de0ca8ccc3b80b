/* global document, window, Image */
/*
 * Loaded by the public gallery's page before its bundle, as a plain script: the first page of
 * photos, sized to this screen, and the thumbnails of the tiles it will show are asked for
 * while the bundle still downloads. The gallery store takes the page from here
 * (renderer/gallery/services/gallery.service.ts); the grid's geometry is PhotoGrid's compact one.
 */
(function () {
  'use strict';
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
  // The screen and one more below it: one request fills the first screen and the scroll ahead.
  var limit = Math.min(MAX_LIMIT, visible * 2);
  var images = [];
  var page = fetch('/api/gallery/photos?limit=' + limit, { credentials: 'same-origin', headers: { Accept: 'application/json' } })
    .then(function (res) {
      return res.ok ? res.json() : null;
    })
    .then(function (body) {
      if (body && Array.isArray(body.photos)) {
        body.photos.slice(0, visible).forEach(function (photo) {
          var img = new Image();
          img.decoding = 'async';
          img.src = photo.urls.thumb;
          images.push(img);
        });
      }
      return body;
    })
    .catch(function () {
      return null;
    });
  window.__boothdeckFirstPage = { limit: limit, page: page, images: images };
})();
