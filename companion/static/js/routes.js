// Chinchón companion: the app's addresses, as the server shapes them.
// The client config (companion/web/client.py) names each route by its shape,
// "/t/{token}/hands/new"; this builds addresses from a shape and recognizes
// them.  No DOM: the pages, the service worker (importScripts) and
// `node --test` load this same file.
(function (exports) {
  "use strict";

  const PLACEHOLDER = /\{(\w+)\}/g;

  function decode(part) {
    try { return decodeURIComponent(part); } catch (e) { return part; }
  }

  function escape(text) {
    return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  }

  // "/t/{token}/qr.svg" → /^\/t\/([^/]+)\/qr\.svg$/ and the names ["token"].
  // `prefix`: the address may go on ("/t/{token}" matches "/t/abc/history").
  function compile(shape, prefix) {
    const names = [];
    let source = "";
    let at = 0;
    shape.replace(PLACEHOLDER, function (whole, name, offset) {
      source += escape(shape.slice(at, offset)) + "([^/]+)";
      names.push(name);
      at = offset + whole.length;
      return whole;
    });
    source += escape(shape.slice(at));
    return { regex: new RegExp("^" + source + (prefix ? "(?=/|$)" : "$")), names: names };
  }

  class Routes {
    // `shapes`: the config's `routes`, {name: shape}.
    constructor(shapes) {
      this.shapes = Object.assign({}, shapes);
      this.compiled = {};
    }

    shape(name) {
      const shape = this.shapes[name];
      if (typeof shape !== "string") throw new Error("no route named " + name);
      return shape;
    }

    // build("scoreboard", {token: "abc"}) → "/t/abc"; every placeholder must be given.
    build(name, params) {
      return this.shape(name).replace(PLACEHOLDER, function (whole, key) {
        if (!params || params[key] === undefined || params[key] === null) throw new Error(name + " needs " + key);
        return encodeURIComponent(String(params[key]));
      });
    }

    // The route's parameters when `path` is its address (or starts with it,
    // `prefix`), else null: match("scoreboard", "/t/abc") → {token: "abc"}.
    match(name, path, prefix) {
      const key = name + (prefix ? "/" : "");
      const compiled = this.compiled[key] || (this.compiled[key] = compile(this.shape(name), prefix));
      const found = compiled.regex.exec(path);
      if (!found) return null;
      const params = {};
      compiled.names.forEach(function (param, i) { params[param] = decode(found[i + 1]); });
      return params;
    }

    // Whether `path` is the address of any of the routes `names`.
    any(names, path) {
      const routes = this;
      return names.some(function (name) { return routes.match(name, path) !== null; });
    }

    // What every address of the route starts with: "/static/{filename}" → "/static/".
    prefix(name) {
      const shape = this.shape(name);
      const first = shape.indexOf("{");
      return first < 0 ? shape : shape.slice(0, first);
    }
  }

  // The config a page carries (<meta name="client-config" content="{...}">).
  function pageConfig(doc) {
    const node = doc.querySelector('meta[name="client-config"]');
    return JSON.parse((node && node.getAttribute("content")) || "{}");
  }

  exports.Routes = Routes;
  exports.pageConfig = pageConfig;
})(typeof module === "object" && module.exports ? module.exports : ((self.Chinchon = self.Chinchon || {}).routes = {}));
