// three.js side of tests/bench/bench_collide.c: the same meadow triangles and the same query
// capsules, through three's own Octree (examples/jsm/math/Octree.js, default trianglesPerLeaf
// and maxLevel) built with fromGraphNode on a Mesh, queried with capsuleIntersect.
//
//   node three_octree.mjs --scene PREFIX --queries FILE [--passes 5] [--builds 3]
//
// Prints one JSON line: build times (ms), ns per query for each timed pass, queries hit.
// Timed: fromGraphNode (it reads the geometry and builds the tree) and the query loop; not
// timed: reading files and wrapping the Float32Array in a BufferGeometry.
import { readFileSync } from 'node:fs';
import { BufferAttribute, BufferGeometry, Mesh, REVISION } from 'three';
import { Octree } from 'three/examples/jsm/math/Octree.js';
import { Capsule } from 'three/examples/jsm/math/Capsule.js';

const args = process.argv.slice(2);
const opt = (name, def) => {
	const i = args.indexOf(name);
	return i >= 0 ? args[i + 1] : def;
};
const prefix = opt('--scene', 'meadow');
const qfile = opt('--queries', `${prefix}_queries.bin`);
const passes = parseInt(opt('--passes', '5'), 10);
const builds = parseInt(opt('--builds', '3'), 10);

const header = JSON.parse(readFileSync(`${prefix}.json`, 'utf8'));
const bin = readFileSync(`${prefix}.bin`);
const tris = new Float32Array(bin.buffer, bin.byteOffset, bin.byteLength / 4).slice();
if (tris.length !== header.numTriangles * 9) throw new Error(`${prefix}.bin does not match its header`);
const qbuf = readFileSync(qfile);
const q = new Float64Array(qbuf.buffer.slice(qbuf.byteOffset, qbuf.byteOffset + qbuf.byteLength));
const nq = q.length / 7;

const median = (a) => {
	const s = [...a].sort((x, y) => x - y);
	const m = s.length >> 1;
	return s.length % 2 ? s[m] : 0.5 * (s[m - 1] + s[m]);
};

let octree = null;
const buildMs = [];
for (let b = 0; b < builds; b++) {
	const geometry = new BufferGeometry();
	geometry.setAttribute('position', new BufferAttribute(tris, 3));
	const mesh = new Mesh(geometry);
	const t0 = performance.now();
	octree = new Octree().fromGraphNode(mesh);
	buildMs.push(performance.now() - t0);
}

const capsule = new Capsule();
let hits = 0;
const nsPerQuery = [];
for (let p = -1; p < passes; p++) { // pass -1: warm-up (the JIT compiles the query path)
	hits = 0;
	const t0 = process.hrtime.bigint();
	for (let i = 0; i < nq; i++) {
		const o = i * 7;
		capsule.start.set(q[o], q[o + 1], q[o + 2]);
		capsule.end.set(q[o + 3], q[o + 4], q[o + 5]);
		capsule.radius = q[o + 6];
		if (octree.capsuleIntersect(capsule)) hits++;
	}
	const ns = Number(process.hrtime.bigint() - t0);
	if (p >= 0) nsPerQuery.push(ns / nq);
}

const version = JSON.parse(readFileSync(new URL('./node_modules/three/package.json', import.meta.url), 'utf8')).version;
console.log(JSON.stringify({
	three: version, revision: REVISION, node: process.version, triangles: header.numTriangles, queries: nq,
	buildMs, buildMsMedian: median(buildMs), nsPerQuery, nsPerQueryMedian: median(nsPerQuery), hits,
}));
