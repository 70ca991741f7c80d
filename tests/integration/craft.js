// SPDX-License-Identifier: Apache-2.0
// Crafted console streams (docs/wire-format.md): every line has its right
// sequence number and CRC-32, so the reader's checks of the contents are
// what is tested, not its CRC check. Seeded and deterministic.
//   node craft.js one NAME TARGET FILE       one named stream (below)
//   node craft.js many SEED N DIR            N hostile streams DIR/NNN-<what>.log
//   node craft.js list                       the names `one` knows
'use strict';
const fs = require('fs');
const path = require('path');

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

// zlib crc32() over the bytes of s (latin1: one byte per char).
function crc32(s) {
  let c = 0xffffffff;
  for (let i = 0; i < s.length; i++)
    c = CRC_TABLE[(c ^ s.charCodeAt(i)) & 0xff] ^ (c >>> 8);
  return ((c ^ 0xffffffff) >>> 0).toString(16).padStart(8, '0');
}

// Percent-encoding of a value: bytes outside 0x21..0x7e and % = #.
function enc(v) {
  let o = '';
  for (const ch of Buffer.from(String(v), 'latin1')) {
    if (ch < 0x21 || ch > 0x7e || ch === 0x25 || ch === 0x3d || ch === 0x23)
      o += '%' + ch.toString(16).toUpperCase().padStart(2, '0');
    else o += String.fromCharCode(ch);
  }
  return o;
}

// records: [{type, f: [[key, value], ...], raw: bool}]; raw values are not
// encoded (to place bytes the encoding would hide).
function render(records) {
  return records
    .map((r, seq) => {
      const body = `@M1 ${seq} ${r.type}` +
        r.f.map(([k, v]) => ` ${k}=${r.raw ? v : enc(v)}`).join('');
      return `${body} #${crc32(body)}\n`;
    })
    .join('');
}

function begin(target, profile) {
  const host = target === 'host';
  return {
    type: 'begin',
    f: [
      ['v', '1'], ['target', target], ['core', host ? 'x86' : 'cortex-m4'],
      ['clock_hz', host ? '0' : '25000000'],
      ['counter', host ? 'clock_monotonic_raw' : 'cmsdk-timer0'],
      ['unit', host ? 'ns' : 'ticks'],
      ['counter_hz', host ? '1000000000' : '25000000'],
      ['compiler', 'arm-none-eabi-gcc GNU 12.2.1'],
      ['cflags', '-mcpu=cortex-m4 -O2 -g'], ['profile', profile],
      ['source', 'crafted'], ['runs', '3'], ['warmup', '0'],
      ['stack_probe_bytes', '256'], ['stack_capacity', '257472'],
      ['lib.wolfssl', '5.9.2'], ['route.sha256', 'wolfcrypt:c'],
    ],
  };
}

const OPS = [
  ['sha256', 'hash', 'wolfcrypt', 'c', '64', 'digest:32'],
  ['ml-kem-512', 'keygen', 'pqclean', 'clean', '-', 'pk:800,sk:1632,ct:768,ss:32'],
  ['ml-kem-512', 'decaps', 'pqclean', 'clean', '-', 'pk:800,sk:1632,ct:768,ss:32'],
];

// A valid run: begin, op records, overhead, per op kat/plan/samples/opend,
// end. Each op is its records in a block so mutations can find them.
function base(target, profile, nops) {
  const recs = [begin(target, profile)];
  for (let i = 0; i < nops; i++) {
    const [alg, op, backend, variant, bytes, obj] = OPS[i % OPS.length];
    recs.push({type: 'op', f: [['id', String(i)], ['alg', alg], ['op', op],
      ['backend', backend], ['variant', variant], ['bytes', bytes],
      ['obj', obj]]});
  }
  recs.push({type: 'overhead', f: [['ticks', '64']]});
  for (let i = 0; i < nops; i++) {
    const id = String(i), v = 9636 + 1000 * i;
    recs.push({type: 'kat', f: [['id', id], ['result', 'pass']]});
    recs.push({type: 'plan', f: [['id', id], ['batch', '1'], ['warmup', '0'],
      ['n', '3']]});
    recs.push({type: 'samples', f: [['id', id], ['i', '0'],
      ['v', `${v},${v + 1},${v + 1}`]]});
    recs.push({type: 'opend', f: [['id', id], ['n', '3'], ['stack', '492'],
      ['heap', '0'], ['allocs', '0']]});
  }
  recs.push({type: 'end', f: [['records', '0'], ['status', 'ok']]});
  return recs;
}

// A run with one op and one timed workflow (docs/workflows.md).
function baseWf(target, profile) {
  const recs = [begin(target, profile)];
  recs.push({type: 'op', f: [['id', '0'], ['alg', 'hkdf-sha256'],
    ['op', 'derive'], ['backend', 'wolfcrypt'], ['variant', 'c'],
    ['bytes', '-']]});
  recs.push({type: 'wf', f: [['id', '0'], ['workflow', 'constrained'],
    ['variant', 'hkdf-aes128gcm'], ['backend', 'wolfcrypt'],
    ['algs', 'hkdf-sha256:wolfcrypt'], ['steps', 'ladder,frames'],
    ['msgs', 'epoch:tx,frames:tx']]});
  recs.push({type: 'overhead', f: [['ticks', '10']]});
  recs.push({type: 'kat', f: [['id', '0'], ['result', 'pass']]});
  recs.push({type: 'plan', f: [['id', '0'], ['batch', '1'], ['warmup', '0'],
    ['n', '1']]});
  recs.push({type: 'samples', f: [['id', '0'], ['i', '0'], ['v', '100']]});
  recs.push({type: 'opend', f: [['id', '0'], ['n', '1'], ['stack', '8'],
    ['heap', '0'], ['allocs', '0']]});
  recs.push({type: 'wfcheck', f: [['id', '0'], ['result', 'pass'],
    ['msgs', '4,672'], ['stored', '4']]});
  recs.push({type: 'wfplan', f: [['id', '0'], ['warmup', '0'], ['n', '2']]});
  recs.push({type: 'wfsample', f: [['id', '0'], ['i', '0'], ['v', '110,210']]});
  recs.push({type: 'wfsample', f: [['id', '0'], ['i', '1'], ['v', '120,220']]});
  recs.push({type: 'wfend', f: [['id', '0'], ['n', '2'], ['stack', '100'],
    ['heap', '8'], ['allocs', '1'], ['ctl_hkdf', '50'], ['ctl_hmac', '60'],
    ['ctl_hkdf_batch', '1'], ['ctl_hmac_batch', '2']]});
  recs.push({type: 'end', f: [['records', '0'], ['status', 'ok']]});
  return recs;
}

// end's records field is its own sequence number, after any edit.
function fixEnd(recs) {
  recs.forEach((r, i) => {
    if (r.type === 'end') {
      const f = r.f.find(([k]) => k === 'records');
      if (f && !r.keepRecords) f[1] = String(i);
    }
  });
  return recs;
}

function setField(rec, key, value) {
  const f = rec.f.find(([k]) => k === key);
  if (f) f[1] = value;
  else rec.f.push([key, value]);
}

// Named streams for the regression tests (one behaviour each).
const NAMED = {
  'valid': (t) => base(t, 'crafted', 3),
  'wf-valid': (t) => baseWf(t, 'crafted'),
  'wf-stack-max': (t) => {
    const r = baseWf(t, 'crafted');
    setField(r.find((x) => x.type === 'wfend'), 'stack', '18446744073709551615');
    return r;
  },
  'stack-max': (t) => {
    const r = base(t, 'crafted', 2);
    setField(r.find((x) => x.type === 'opend'), 'stack', '18446744073709551615');
    return r;
  },
  'heap-2p63': (t) => {
    const r = base(t, 'crafted', 2);
    setField(r.find((x) => x.type === 'opend'), 'heap', '9223372036854775808');
    return r;
  },
  'allocs-int64-max': (t) => {
    const r = base(t, 'crafted', 2);
    setField(r.find((x) => x.type === 'opend'), 'allocs', '9223372036854775807');
    return r;
  },
  'overhead-max': (t) => {
    const r = base(t, 'crafted', 1);
    setField(r.find((x) => x.type === 'overhead'), 'ticks', '18446744073709551615');
    return r;
  },
  'zero-median': (t) => {
    const r = base(t, 'crafted', 2);
    setField(r.find((x) => x.type === 'samples'), 'v', '64,64,64');
    return r;
  },
  'dup-op': (t) => {
    const r = base(t, 'crafted', 2);
    const ops = r.filter((x) => x.type === 'op');
    ops[1].f = ops[0].f.map(([k, v]) => [k, k === 'id' ? '1' : v]);
    return r;
  },
  'profile-dotdot': (t) => base(t, '../../x', 1),
  'profile-slash': (t) => base(t, 'a/b', 1),
  'profile-newline': (t) => base(t, 'a\nb', 1),
  'profile-long': (t) => base(t, 'p'.repeat(200), 1),
  'profile-empty': (t) => base(t, '', 1),
  'target-slash': (t) => {
    const r = base(t, 'crafted', 1);
    setField(r[0], 'target', '../qemu-m4');
    return r;
  },
};

// ---- hostile streams -------------------------------------------------

function mulberry32(a) {
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NUMBERS = [
  '0', '1', '18446744073709551615', '18446744073709551616',
  '9223372036854775807', '9223372036854775808', '4294967295', '4294967296',
  '99999999999999999999999', '-1', '+5', '0x10', '1e3', '', ' 7', '007',
  '1.5', '2147483647', '2147483648', '-0',
];
const NAMES = [
  '../../x', 'a/b', 'a\nb', 'p'.repeat(200), '', '.hidden', 'é', 'a,b"c',
  'a|b', '<script>alert(1)</script>', '%', 'x'.repeat(70), 'ok-name',
  'CON', 'a b', '\\x', '-', '--out',
];
const NUM_FIELDS = {
  begin: ['clock_hz', 'counter_hz', 'runs', 'warmup', 'stack_probe_bytes'],
  op: ['id', 'bytes'], overhead: ['ticks'], kat: ['id'],
  plan: ['id', 'batch', 'warmup', 'n'], samples: ['id', 'i'],
  opend: ['id', 'n', 'stack', 'heap', 'allocs'], end: ['records'],
  wfcheck: ['id', 'stored'], wfplan: ['id', 'warmup', 'n'],
  wfsample: ['id', 'i'],
  wfend: ['id', 'n', 'stack', 'heap', 'allocs', 'ctl_hkdf', 'ctl_hmac_batch'],
};
const NAME_FIELDS = {
  begin: ['target', 'profile', 'core', 'compiler', 'cflags', 'source',
    'lib.wolfssl', 'route.sha256'],
  op: ['alg', 'op', 'backend', 'variant', 'obj'],
  wf: ['workflow', 'variant', 'backend', 'algs', 'steps', 'msgs'],
};

function pick(rnd, a) {
  return a[Math.floor(rnd() * a.length)];
}

// Each mutation edits recs in place and returns a short tag.
const MUTATIONS = [
  function number(rnd, recs) {
    const r = pick(rnd, recs.filter((x) => NUM_FIELDS[x.type]));
    const k = pick(rnd, NUM_FIELDS[r.type]);
    const v = pick(rnd, NUMBERS);
    setField(r, k, v);
    if (r.type === 'end') r.keepRecords = true;
    return `num-${r.type}-${k}`;
  },
  function name(rnd, recs) {
    const r = pick(rnd, recs.filter((x) => NAME_FIELDS[x.type]));
    const k = pick(rnd, NAME_FIELDS[r.type]);
    setField(r, k, pick(rnd, NAMES));
    return `name-${r.type}-${k.replace(/\W/g, '')}`;
  },
  function samples(rnd, recs) {
    const r = pick(rnd, recs.filter((x) => x.type === 'samples' ||
      x.type === 'wfsample' || (x.type === 'wfcheck' && rnd() < 0.5)));
    if (!r) return 'samples-none';
    const n = 1 + Math.floor(rnd() * 3);
    const vals = [];
    for (let i = 0; i < n; i++) vals.push(pick(rnd, [
      '64', '63', '0', '18446744073709551615', '9223372036854775808',
      String(Math.floor(rnd() * 1e6)), '1e9', '-5', '',
    ]));
    setField(r, r.type === 'wfcheck' ? 'msgs' : 'v', vals.join(','));
    return r.type;
  },
  function duplicateId(rnd, recs) {
    const ops = recs.filter((x) => x.type === 'op');
    if (ops.length < 2) return 'dupid-none';
    setField(ops[1], 'id', ops[0].f.find(([k]) => k === 'id')[1]);
    return 'dupid';
  },
  function drop(rnd, recs) {
    const i = 1 + Math.floor(rnd() * (recs.length - 1));
    const t = recs[i].type;
    recs.splice(i, 1);
    return `drop-${t}`;
  },
  function repeat(rnd, recs) {
    const i = 1 + Math.floor(rnd() * (recs.length - 2));
    recs.splice(i, 0, JSON.parse(JSON.stringify(recs[i])));
    return `repeat-${recs[i].type}`;
  },
  function swap(rnd, recs) {
    const i = 1 + Math.floor(rnd() * (recs.length - 2));
    const t = recs[i];
    recs[i] = recs[i + 1];
    recs[i + 1] = t;
    return `swap-${recs[i].type}`;
  },
  function huge(rnd, recs) {
    const r = pick(rnd, recs.filter((x) => NAME_FIELDS[x.type]));
    const k = pick(rnd, NAME_FIELDS[r.type]);
    setField(r, k, 'h'.repeat(pick(rnd, [1000, 30000, 70000])));
    return `huge-${r.type}`;
  },
  function extraField(rnd, recs) {
    const r = pick(rnd, recs);
    r.f.push([pick(rnd, ['zz', 'stack', 'id', 'v', 'image.target']), '1']);
    return `extra-${r.type}`;
  },
  function katFail(rnd, recs) {
    const r = pick(rnd, recs.filter((x) => x.type === 'kat'));
    if (!r) return 'kat-none';
    setField(r, 'result', 'fail');
    if (rnd() < 0.5) setField(r, 'detail', 'vector 3');
    return 'kat-fail';
  },
  function errorRecord(rnd, recs) {
    const i = 1 + Math.floor(rnd() * (recs.length - 2));
    recs.splice(i, 0, {type: 'error', f: [['id', pick(rnd, ['0', '1', '-', '7'])],
      ['msg', pick(rnd, NAMES)]]});
    return 'error';
  },
  function endStatus(rnd, recs) {
    setField(recs[recs.length - 1], 'status', pick(rnd, ['fail', 'ok', 'maybe']));
    return 'end-status';
  },
  function batch(rnd, recs) {
    const r = pick(rnd, recs.filter((x) => x.type === 'plan'));
    if (!r) return 'batch-none';
    setField(r, 'batch', pick(rnd, ['4294967295', '1000000', '3']));
    return 'batch';
  },
  function ct(rnd, recs) {
    const i = recs.findIndex((x) => x.type === 'opend');
    if (i < 0) return 'ct-none';
    const id = recs[i].f.find(([k]) => k === 'id')[1];
    const n = pick(rnd, ['0', '1', '2', '16', '17']);
    const f = [['id', id], ['n', n], ['fresh', pick(rnd, ['0', '1', '2'])]];
    if (n !== '0' || rnd() < 0.2) {
      const vals = [];
      for (let k = 0; k < Math.max(1, Number(n)); k++)
        vals.push(pick(rnd, ['100', '101', '18446744073709551615', '0']));
      f.push(['v', vals.join(',')]);
    }
    if (rnd() < 0.3) f.push(['vg', pick(rnd, NUMBERS)]);
    recs.splice(i, 0, {type: 'ct', f});
    return 'ct';
  },
  function katOnly(rnd, recs) {
    setField(recs[0], 'runs', '0');
    for (let i = recs.length - 1; i >= 0; i--) {
      const t = recs[i].type;
      if ((t === 'plan' || t === 'samples' || t === 'wfplan' ||
           t === 'wfsample') && rnd() < 0.95)
        recs.splice(i, 1);
      else if (t === 'opend' || t === 'wfend')
        recs[i].f = recs[i].f.filter(([k]) => k === 'id' || k === 'n')
          .map(([k, v]) => [k, k === 'n' ? '0' : v]);
    }
    return 'kat-only';
  },
  function bigCount(rnd, recs) {
    const r = pick(rnd, recs.filter((x) => x.type === 'opend'));
    if (!r) return 'count-none';
    const k = pick(rnd, ['stack', 'heap', 'allocs']);
    setField(r, k, pick(rnd, ['18446744073709551615', '9223372036854775808',
      '9223372036854775807', '4294967296']));
    return `count-${k}`;
  },
];

function hostile(seed) {
  const rnd = mulberry32(seed);
  const target = rnd() < 0.5 ? 'qemu-m4' : 'host';
  const recs = rnd() < 0.25 ? baseWf(target, 'crafted')
    : base(target, 'crafted', 1 + Math.floor(rnd() * 3));
  const tags = [];
  const k = 1 + Math.floor(rnd() * 3);
  for (let i = 0; i < k; i++) tags.push(pick(rnd, MUTATIONS)(rnd, recs));
  return {target, text: render(fixEnd(recs)), tags};
}

function main(argv) {
  const [cmd, ...a] = argv;
  if (cmd === 'one') {
    const [name, target, file] = a;
    if (!NAMED[name]) throw new Error(`unknown stream '${name}'`);
    fs.writeFileSync(file, render(fixEnd(NAMED[name](target))), 'latin1');
  } else if (cmd === 'many') {
    const [seed, n, dir] = a;
    fs.mkdirSync(dir, {recursive: true});
    for (let i = 0; i < Number(n); i++) {
      const s = hostile(Number(seed) * 1000003 + i);
      const file = path.join(dir, `${String(i).padStart(3, '0')}-${s.target}-` +
        `${s.tags.join('+')}.log`);
      fs.writeFileSync(file, s.text, 'latin1');
    }
  } else if (cmd === 'list') {
    console.log(Object.keys(NAMED).join('\n'));
  } else {
    throw new Error('usage: craft.js one NAME TARGET FILE | many SEED N DIR | list');
  }
}

module.exports = {crc32, enc, render, base};
if (require.main === module) main(process.argv.slice(2));
