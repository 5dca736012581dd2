/* The web client's set-up (issue 30): what Evennia's webclient/base.html does in inline
 * scripts, from a file, so the page's Content-Security-Policy can forbid inline script.
 * The values the server fills in come from <meta name="wod-webclient"> in the head; the
 * globals below are what evennia.js reads (window.wsactive, wsurl, csessid, cuid). */
var wsactive, wsurl, csessid, cuid;
(function () {
  "use strict";
  var meta = document.querySelector('meta[name="wod-webclient"]');
  function value(name) { return meta ? meta.getAttribute("data-" + name) || "" : ""; }

  function generateUID() {  // a low-quality id told apart by the server per client tab
    return Math.random().toString(36).substring(2, 15) +
      Math.random().toString(36).substring(2, 15);
  }

  wsactive = value("websocket") === "1";
  csessid = value("sessid") || false;
  wsurl = value("url") || ("ws://" + window.location.hostname + ":" + value("port"));
  cuid = generateUID();

  function warn(text) {
    var div = document.createElement("div");
    div.className = "err";
    div.textContent = text;
    document.body.insertBefore(div, document.body.firstChild);
  }

  if (!window.jQuery) {
    document.addEventListener("DOMContentLoaded", function () {
      warn("jQuery library not found or the online version could not be reached. " +
           "Check so Javascript is not blocked in your browser.");
    });
    return;
  }
  // the first ready handler, as Evennia's inline one was: the client shows before the
  // GUI's handlers (loaded after this file) lay it out
  window.jQuery(function ($) {
    if (!window.Favico) {
      warn("Favico.js library not found or the online version could not be reached. " +
           "Check so Javascript is not blocked in your browser.");
    }
    $("#noscript").remove();
    $("#clientwrapper").removeClass("d-none");
  });
})();
