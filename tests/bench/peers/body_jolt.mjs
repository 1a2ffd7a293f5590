// Peer: Jolt Physics' CharacterVirtual, WebAssembly build from npm (jolt-physics, single thread).
// Per character and step: SetLinearVelocity, then ExtendedUpdate (stick to floor 0.5 m down, walk
// stairs 0.3 m up); grounded = GetGroundState() == OnGround. Only the characters are timed (the
// static world needs no PhysicsSystem::Update). Settings: max slope 45 deg, padding 0.02,
// predictive contact 0.1, supporting volume at the lower sphere's centre, back faces collide.
//   node body_jolt.mjs --scene PREFIX [--variant mesh|heightfield] [--chars N] [--reps R] [--out F]
// mesh: one MeshShape of every triangle; heightfield: a HeightFieldShape for the terrain and one
// BoxShape body per box (Jolt's closest analogue of gait's heightfield + landmarks).
import initJolt from 'jolt-physics';
import { args, scene, headingAt, pkgVersion, bench } from './body_common.mjs';

const o = args();
const variant = o.variant || 'mesh';
const s = scene(o.scene, o.chars);
const H = s.h, n = s.n, r = s.r, half = s.half, dt = H.dt;
const J = await initJolt();

const NON_MOVING = 0, MOVING = 1;
const js = new J.JoltSettings();
js.mMaxWorkerThreads = 0;
const pairs = new J.ObjectLayerPairFilterTable(2);
pairs.EnableCollision(NON_MOVING, MOVING);
const bpl = new J.BroadPhaseLayerInterfaceTable(2, 2);
bpl.MapObjectToBroadPhaseLayer(NON_MOVING, new J.BroadPhaseLayer(0));
bpl.MapObjectToBroadPhaseLayer(MOVING, new J.BroadPhaseLayer(1));
js.mObjectLayerPairFilter = pairs;
js.mBroadPhaseLayerInterface = bpl;
js.mObjectVsBroadPhaseLayerFilter = new J.ObjectVsBroadPhaseLayerFilterTable(bpl, 2, pairs, 2);
const jolt = new J.JoltInterface(js);
const system = jolt.GetPhysicsSystem();
const bodies = system.GetBodyInterface();

const made = (res, what) => {
	if (res.HasError()) throw new Error(`jolt ${what}: ${res.GetError().c_str()}`);
	return res.Get();
};
const addStatic = (shape, x, y, z, q) => {
	const bcs = new J.BodyCreationSettings(shape, new J.RVec3(x, y, z), q, J.EMotionType_Static, NON_MOVING);
	bodies.AddBody(bodies.CreateBody(bcs).GetID(), J.EActivation_DontActivate);
	J.destroy(bcs);
};

const t0 = performance.now();
if (variant === 'mesh') {
	const count = s.tris.length / 9, list = new J.TriangleList(), f = new J.Float3(0, 0, 0);
	list.resize(count);
	for (let t = 0; t < count; t++) {
		const tri = list.at(t);
		for (let v = 0; v < 3; v++) {
			f.x = s.tris[9 * t + 3 * v]; f.y = s.tris[9 * t + 3 * v + 1]; f.z = s.tris[9 * t + 3 * v + 2];
			tri.set_mV(v, f);
		}
	}
	addStatic(made(new J.MeshShapeSettings(list).Create(), 'mesh'), 0, 0, 0, J.Quat.prototype.sIdentity());
} else if (variant === 'heightfield') {
	const hf = new J.HeightFieldShapeSettings();
	hf.mOffset.Set(0, 0, 0);
	hf.mScale.Set(1, 1, 1);
	hf.mSampleCount = s.grid;
	hf.mHeightSamples.resize(s.grid * s.grid);
	// sample (x, y) of Jolt's grid is world (x, h, z = y): the scene's own [iz * grid + ix] order
	new Float32Array(J.HEAPF32.buffer, J.getPointer(hf.mHeightSamples.data()), s.grid * s.grid).set(s.heights);
	addStatic(made(hf.Create(), 'heightfield'), 0, 0, 0, J.Quat.prototype.sIdentity());
	for (const b of s.boxes)
		addStatic(new J.BoxShape(new J.Vec3(b.hx, (b.y1 - b.y0) / 2, b.hz), 0.05), b.cx, (b.y0 + b.y1) / 2, b.cz,
			new J.Quat(0, Math.sin(b.angle / 2), 0, Math.cos(b.angle / 2)));
} else throw new Error(`body_jolt: unknown variant ${variant}`);
system.OptimizeBroadPhase();
const buildMs = performance.now() - t0;

const capsule = made(new J.RotatedTranslatedShapeSettings(new J.Vec3(0, half + r, 0), J.Quat.prototype.sIdentity(),
	new J.CapsuleShapeSettings(half, r)).Create(), 'capsule');
const cs = new J.CharacterVirtualSettings();
cs.mShape = capsule;
cs.mMaxSlopeAngle = Math.PI / 4;
cs.mMass = 1000;
cs.mMaxStrength = 100;
cs.mCharacterPadding = 0.02;
cs.mPenetrationRecoverySpeed = 1;
cs.mPredictiveContactDistance = 0.1;
cs.mBackFaceMode = J.EBackFaceMode_CollideWithBackFaces;
cs.mSupportingVolume = new J.Plane(J.Vec3.prototype.sAxisY(), -r);
const at = new J.RVec3(0, 0, 0);
const chars = [];
for (let i = 0; i < n; i++) {
	at.Set(H.spawn[3 * i], H.spawn[3 * i + 1], H.spawn[3 * i + 2]);
	chars.push(new J.CharacterVirtual(cs, at, J.Quat.prototype.sIdentity(), system));
}
const ext = new J.ExtendedUpdateSettings();
ext.mStickToFloorStepDown.Set(0, -0.5, 0);
ext.mWalkStairsStepUp.Set(0, 0.3, 0);
const bpFilter = new J.DefaultBroadPhaseLayerFilter(jolt.GetObjectVsBroadPhaseLayerFilter(), MOVING);
const layerFilter = new J.DefaultObjectLayerFilter(jolt.GetObjectLayerPairFilter(), MOVING);
const bodyFilter = new J.BodyFilter(), shapeFilter = new J.ShapeFilter(), temp = jolt.GetTempAllocator();
const gravity = new J.Vec3(0, -H.gravity, 0), v = new J.Vec3(0, 0, 0), zero = new J.Vec3(0, 0, 0);
const vy = new Float64Array(n), grounded = new Uint8Array(n), feet = new Float64Array(3 * n);

bench(s, {
	name: 'jolt-wasm', variant, versions: { 'jolt-physics': pkgVersion('jolt-physics') }, buildMs,
	config: 'CharacterVirtual max slope 45, padding 0.02, predictive 0.1, mass 1000, strength 100; ExtendedUpdate stick 0.5 down, stairs 0.3 up',
	reset() {
		for (let i = 0; i < n; i++) {
			at.Set(H.spawn[3 * i], H.spawn[3 * i + 1], H.spawn[3 * i + 2]);
			chars[i].SetPosition(at);
			chars[i].SetLinearVelocity(zero);
			chars[i].RefreshContacts(bpFilter, layerFilter, bodyFilter, shapeFilter, temp);
			feet.set([H.spawn[3 * i], H.spawn[3 * i + 1], H.spawn[3 * i + 2]], 3 * i);
			vy[i] = 0;
			grounded[i] = 0;
		}
	},
	step(k) {
		for (let i = 0; i < n; i++) {
			const a = headingAt(s, i, k), c = chars[i];
			if (grounded[i]) vy[i] = 0;
			vy[i] -= H.gravity * dt;
			v.Set(H.speed * Math.cos(a), vy[i], H.speed * Math.sin(a));
			c.SetLinearVelocity(v);
			c.ExtendedUpdate(dt, gravity, ext, bpFilter, layerFilter, bodyFilter, shapeFilter, temp);
			grounded[i] = c.GetGroundState() === J.EGroundState_OnGround ? 1 : 0;
			const p = c.GetPosition();
			feet[3 * i] = p.GetX(); feet[3 * i + 1] = p.GetY(); feet[3 * i + 2] = p.GetZ();
		}
	},
	feet(i, out) {
		out[0] = feet[3 * i]; out[1] = feet[3 * i + 1]; out[2] = feet[3 * i + 2];
	},
}, o);
