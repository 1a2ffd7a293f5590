// Peer: three.js Octree + Capsule, moved the way three.js' games_fps example moves its player:
// integrate the velocity, one Octree.capsuleIntersect, push out along normal x depth, grounded
// when that normal points up. No sweep, no step-up, no ground snap (three.js has none).
//   node body_three.mjs --scene PREFIX [--chars N] [--reps R] [--out FILE.json]
import { Vector3, Triangle } from 'three';
import { Octree } from 'three/examples/jsm/math/Octree.js';
import { Capsule } from 'three/examples/jsm/math/Capsule.js';
import { args, scene, headingAt, pkgVersion, bench } from './body_common.mjs';

const o = args();
const s = scene(o.scene, o.chars);
const H = s.h, n = s.n, r = s.r, dt = H.dt;

const t0 = performance.now();
const tree = new Octree();
for (let t = 0; t < s.tris.length; t += 9) {
	const a = s.tris;
	tree.addTriangle(new Triangle(new Vector3(a[t], a[t + 1], a[t + 2]), new Vector3(a[t + 3], a[t + 4], a[t + 5]),
		new Vector3(a[t + 6], a[t + 7], a[t + 8])));
}
tree.build();
const buildMs = performance.now() - t0;

const caps = Array.from({ length: n }, () => new Capsule(new Vector3(), new Vector3(), r));
const vel = Array.from({ length: n }, () => new Vector3());
const floor = new Uint8Array(n);
const move = new Vector3();

bench(s, {
	name: 'three-octree', variant: 'all-triangles', versions: { three: pkgVersion('three') }, buildMs,
	config: `Octree of all ${H.numTriangles} triangles (defaults); games_fps player step: integrate, capsuleIntersect, push out`,
	reset() {
		for (let i = 0; i < n; i++) {
			const x = H.spawn[3 * i], y = H.spawn[3 * i + 1], z = H.spawn[3 * i + 2];
			caps[i].start.set(x, y + r, z);
			caps[i].end.set(x, y + r + 2 * s.half, z);
			vel[i].set(0, 0, 0);
			floor[i] = 0;
		}
	},
	step(k) {
		for (let i = 0; i < n; i++) {
			const v = vel[i], c = caps[i], a = headingAt(s, i, k);
			if (floor[i]) v.y = 0;
			v.y -= H.gravity * dt;
			v.x = H.speed * Math.cos(a);
			v.z = H.speed * Math.sin(a);
			c.translate(move.copy(v).multiplyScalar(dt));
			const hit = tree.capsuleIntersect(c);
			floor[i] = 0;
			if (hit) {
				floor[i] = hit.normal.y > 0 ? 1 : 0;
				if (!floor[i]) v.addScaledVector(hit.normal, -hit.normal.dot(v));
				if (hit.depth >= 1e-10) c.translate(hit.normal.multiplyScalar(hit.depth));
			}
		}
	},
	feet(i, out) {
		out[0] = caps[i].start.x; out[1] = caps[i].start.y - r; out[2] = caps[i].start.z;
	},
}, o);
