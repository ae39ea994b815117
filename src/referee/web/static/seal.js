// Sealed choices checked in the browser (issue 12, docs/fairness.md): a revealed choice must be
// the one committed when it was sealed — SHA-256("referee/choice/v1" 0x00 ‖ salt ‖ canonical
// JSON). Plain JavaScript, so it works on a phone over a local network too (where the browser
// keeps its own crypto.subtle to secure origins).
var RefSeal = (function () {
  "use strict";
  var K = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2];

  // SHA-256 of a byte array, as 64 hex digits (FIPS 180-4).
  function sha256hex(bytes) {
    var H = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
    var n = bytes.length, total = ((n + 9 + 63) >> 6) << 6;
    var m = new Uint8Array(total);
    m.set(bytes); m[n] = 0x80;
    var bits = n * 8;
    for (var i = 0; i < 8; i++) m[total - 1 - i] = Math.floor(bits / Math.pow(2, 8 * i)) & 0xff;
    var w = new Array(64);
    for (var off = 0; off < total; off += 64) {
      for (var t = 0; t < 16; t++) {
        w[t] = (m[off + 4 * t] << 24) | (m[off + 4 * t + 1] << 16) | (m[off + 4 * t + 2] << 8) | m[off + 4 * t + 3];
      }
      for (t = 16; t < 64; t++) {
        var a = w[t - 15], b = w[t - 2];
        var s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
        var s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
        w[t] = (w[t - 16] + s0 + w[t - 7] + s1) | 0;
      }
      var A = H[0], B = H[1], C = H[2], D = H[3], E = H[4], F = H[5], G = H[6], X = H[7];
      for (t = 0; t < 64; t++) {
        var S1 = ((E >>> 6) | (E << 26)) ^ ((E >>> 11) | (E << 21)) ^ ((E >>> 25) | (E << 7));
        var ch = (E & F) ^ (~E & G);
        var t1 = (X + S1 + ch + K[t] + w[t]) | 0;
        var S0 = ((A >>> 2) | (A << 30)) ^ ((A >>> 13) | (A << 19)) ^ ((A >>> 22) | (A << 10));
        var maj = (A & B) ^ (A & C) ^ (B & C);
        var t2 = (S0 + maj) | 0;
        X = G; G = F; F = E; E = (D + t1) | 0; D = C; C = B; B = A; A = (t1 + t2) | 0;
      }
      H = [(H[0] + A) | 0, (H[1] + B) | 0, (H[2] + C) | 0, (H[3] + D) | 0,
           (H[4] + E) | 0, (H[5] + F) | 0, (H[6] + G) | 0, (H[7] + X) | 0];
    }
    return H.map(function (x) { return ("00000000" + (x >>> 0).toString(16)).slice(-8); }).join("");
  }

  // JSON with keys sorted and no spaces, text as UTF-8: Python's canonical_json.
  function canonical(v) {
    if (v === null || typeof v === "boolean" || typeof v === "number") return JSON.stringify(v);
    if (typeof v === "string") return JSON.stringify(v);
    if (Array.isArray(v)) return "[" + v.map(canonical).join(",") + "]";
    return "{" + Object.keys(v).sort().map(function (k) { return JSON.stringify(k) + ":" + canonical(v[k]); }).join(",") + "}";
  }

  function hexBytes(hex) {
    var out = new Uint8Array(hex.length / 2);
    for (var i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(2 * i, 2), 16);
    return out;
  }

  var LABEL = new TextEncoder().encode("referee/choice/v1\u0000");

  // The commitment of a choice: what was published when it was sealed.
  function commit(content, saltHex) {
    var salt = hexBytes(saltHex), text = new TextEncoder().encode(canonical(content));
    var all = new Uint8Array(LABEL.length + salt.length + text.length);
    all.set(LABEL); all.set(salt, LABEL.length); all.set(text, LABEL.length + salt.length);
    return sha256hex(all);
  }

  // Remember each commitment seen; check each revealed choice: "checked", "MISMATCH" or
  // "unknown" (its sealing is before what this seat was sent).
  var committed = {};
  function see(payload) {
    var out = [];
    if (!payload) return out;
    if (payload.sealed && payload.sealed.choice) committed[payload.sealed.choice] = payload.sealed.commitment;
    (payload.unsealed || []).forEach(function (u) {
      var want = committed[u.choice];
      var verdict = want == null ? "unknown" : (commit(u.content, u.salt) === want ? "checked" : "MISMATCH");
      out.push({choice: u.choice, verdict: verdict});
    });
    return out;
  }
  function reset() { committed = {}; }

  return {sha256hex: sha256hex, canonical: canonical, commit: commit, see: see, reset: reset};
})();
