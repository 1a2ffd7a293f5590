// Peer: Rapier's KinematicCharacterController (npm @dimforge/rapier3d-compat), each character a
// kinematic position-based capsule; per step computeColliderMovement, the computed translation
// set as the next kinematic position, then one world.step() (Rapier's scene queries read the
// broad-phase that world.step() refreshes). The whole step is timed.
// Settings as the peers agreed: offset 0.01, autostep 0.3 m (min width 0.2), snap to ground 0.3,
// max slope climb 45 deg. The scene goes in as one trimesh of every triangle.
//   node body_rapier.mjs --scene PREFIX [--chars N] [--reps R] [--out FILE.json]
import RAPIER from '@dimforge/rapier3d-compat';
import { args, scene, headingAt, pkgVersion, bench } from './body_common.mjs';

const o = args();
const s = scene(o.scene, o.chars);
const H = s.h, n = s.n, r = s.r, half = s.half, dt = H.dt;
await RAPIER.init();
const world = new RAPIER.World({ x: 0, y: -H.gravity, z: 0 });
world.timestep = dt;
// collision groups: statics (bit 0) meet characters (bit 1); characters never meet each other
const STATIC = (0x0001 << 16) | 0xffff, CHAR = (0x0002 << 16) | 0x0001;

const t0 = performance.now();
{
	// weld identical vertices into an indexed mesh (what a mesh importer hands over)
	const ids = new Map(), verts = [], index = new Uint32Array(s.tris.length / 3);
	for (let v = 0; v < index.length; v++) {
		const x = s.tris[3 * v], y = s.tris[3 * v + 1], z = s.tris[3 * v + 2], key = `${x} ${y} ${z}`;
		let id = ids.get(key);
		if (id === undefined) { id = verts.length / 3; ids.set(key, id); verts.push(x, y, z); }
		index[v] = id;
	}
	const body = world.createRigidBody(RAPIER.RigidBodyDesc.fixed());
	world.createCollider(RAPIER.ColliderDesc.trimesh(new Float32Array(verts), index).setCollisionGroups(STATIC), body);
}
world.step();
const buildMs = performance.now() - t0;

const bodies = [], cols = [], kccs = [];
for (let i = 0; i < n; i++) {
	const b = world.createRigidBody(RAPIER.RigidBodyDesc.kinematicPositionBased()
		.setTranslation(H.spawn[3 * i], H.spawn[3 * i + 1] + r + half, H.spawn[3 * i + 2]));
	cols.push(world.createCollider(RAPIER.ColliderDesc.capsule(half, r).setCollisionGroups(CHAR), b));
	bodies.push(b);
	const k = world.createCharacterController(0.01);
	k.enableAutostep(0.3, 0.2, false);
	k.enableSnapToGround(0.3);
	k.setMaxSlopeClimbAngle(Math.PI / 4);
	kccs.push(k);
}
const vy = new Float64Array(n), grounded = new Uint8Array(n);

bench(s, {
	name: 'rapier-kcc', variant: 'trimesh', versions: { '@dimforge/rapier3d-compat': pkgVersion('@dimforge/rapier3d-compat') }, buildMs,
	config: 'KinematicCharacterController offset 0.01, autostep 0.3/0.2, snap 0.3, max climb 45 deg; one trimesh; timed: every computeColliderMovement + world.step()',
	reset() {
		for (let i = 0; i < n; i++) {
			bodies[i].setTranslation({ x: H.spawn[3 * i], y: H.spawn[3 * i + 1] + r + half, z: H.spawn[3 * i + 2] }, true);
			bodies[i].setNextKinematicTranslation(bodies[i].translation());
			vy[i] = 0;
			grounded[i] = 0;
		}
		world.step();
	},
	step(k) {
		for (let i = 0; i < n; i++) {
			const a = headingAt(s, i, k);
			if (grounded[i]) vy[i] = 0;
			vy[i] -= H.gravity * dt;
			const kc = kccs[i];
			kc.computeColliderMovement(cols[i], { x: H.speed * Math.cos(a) * dt, y: vy[i] * dt, z: H.speed * Math.sin(a) * dt },
				RAPIER.QueryFilterFlags.EXCLUDE_KINEMATIC);
			const m = kc.computedMovement(), p = bodies[i].translation();
			bodies[i].setNextKinematicTranslation({ x: p.x + m.x, y: p.y + m.y, z: p.z + m.z });
			grounded[i] = kc.computedGrounded() ? 1 : 0;
		}
		world.step();
	},
	feet(i, out) {
		const p = bodies[i].translation();
		out[0] = p.x; out[1] = p.y - r - half; out[2] = p.z;
	},
}, o);
