/* The fight page's two scripts (combat.js draws, fight_controls.js sends) build their DOM
 * with these. Every string becomes a text node, never HTML (issue 30). */
(function () {
  "use strict";
  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    (children || []).forEach(function (c) {
      node.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
    });
    return node;
  }

  function clear(node) {
    while (node.firstChild) { node.removeChild(node.firstChild); }
  }

  window.WodDom = Object.freeze({el: el, clear: clear});
}());
