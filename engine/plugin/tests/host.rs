//! The engine side with Rust plugins: entity table, objects by name, frame lock, errors, and panic
//! containment.

use std::cell::RefCell;
use std::rc::Rc;

use modex_plugin::{
    vec_rotate, CallError, Engine, EntityKey, EntityState, FrameBuffer, Object, Plugin, PluginHost,
    RawFixed,
};
use proptest::prelude::*;

/// A plugin that runs a closure.
struct Script<F>(&'static str, F);

impl<F: FnMut(&str, &mut Engine<'_>) -> RawFixed> Plugin for Script<F> {
    fn name(&self) -> &str {
        "script"
    }
    fn exports(&self) -> &[&str] {
        std::slice::from_ref(&self.0)
    }
    fn call(&mut self, function: &str, engine: &mut Engine<'_>) -> RawFixed {
        (self.1)(function, engine)
    }
}

fn script<F: FnMut(&str, &mut Engine<'_>) -> RawFixed + 'static>(
    name: &'static str,
    f: F,
) -> Box<dyn Plugin> {
    Box::new(Script(name, f))
}

fn host_with<F: FnMut(&str, &mut Engine<'_>) -> RawFixed + 'static>(
    name: &'static str,
    f: F,
) -> PluginHost {
    let mut host = PluginHost::new();
    host.add(Box::new(Script(name, f)));
    host
}

fn three_entities(host: &mut PluginHost) {
    host.sync_entities((0..3).map(|i| {
        (
            EntityKey::Engine(i),
            "thing",
            EntityState {
                position: [i as f32, 0.0, 0.0],
                ..EntityState::default()
            },
        )
    }));
}

#[test]
fn each_entity_visits_every_entity_with_my_set_and_changes_read_back() {
    let seen = Rc::new(RefCell::new(Vec::new()));
    let s = seen.clone();
    let mut host = host_with("Lift", move |_, a5| {
        let my = a5.my().expect("MY is set");
        let e = a5.entity(my).unwrap();
        s.borrow_mut().push(e.x);
        e.z = 5 * 1024;
        e.skill[3] += 1;
        0
    });
    three_entities(&mut host);
    host.call_each_entity("Lift").unwrap();
    assert_eq!(*seen.borrow(), [0, 1024, 2048]);
    assert_eq!(
        host.entity(EntityKey::Engine(1)).unwrap().position,
        [1.0, 0.0, 5.0]
    );
    // The next frame writes engine state again; skills are the plugin's and survive.
    three_entities(&mut host);
    assert_eq!(host.entity(EntityKey::Engine(1)).unwrap().position[2], 0.0);
    host.call_each_entity("Lift").unwrap();
    let skills = Rc::new(RefCell::new(0));
    let k = skills.clone();
    let mut probe = host;
    probe.add(script("Probe", move |_, a5| {
        let first = a5.entities()[0];
        *k.borrow_mut() = a5.entity(first).unwrap().skill[3];
        0
    }));
    probe.call_each_entity("Probe").unwrap();
    assert_eq!(*skills.borrow(), 2);
}

#[test]
fn engine_entities_no_longer_listed_are_gone() {
    let mut host = PluginHost::new();
    three_entities(&mut host);
    host.sync_entities([(EntityKey::Engine(2), "thing", EntityState::default())]);
    assert!(host.entity(EntityKey::Engine(0)).is_none());
    assert!(host.entity(EntityKey::Engine(2)).is_some());
}

#[test]
fn created_entities_live_until_removed_and_removed_engine_entities_stay_hidden() {
    let mut host = host_with("Life", |_, a5| {
        let made = a5.ent_create("spark.mdl", [0, 0, 1024]);
        let all = a5.entities();
        assert_eq!(all.last(), Some(&made), "new entities are walked last");
        // Remove the first engine entity and the one just made; removing twice is an error line.
        assert!(a5.ent_remove(all[0]));
        assert!(a5.ent_remove(made));
        assert!(!a5.ent_remove(made));
        assert!(a5.entity(made).is_none());
        a5.ent_create("kept.mdl", [7 * 1024, 0, 0]);
        0
    });
    three_entities(&mut host);
    host.call_each_entity("Life")
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(host.is_removed(EntityKey::Engine(0)));
    three_entities(&mut host);
    assert!(host.entity(EntityKey::Engine(0)).is_none(), "stays removed");
    // Each of the three calls removed the first entity left (E0, then E1, then E2) and the spark
    // it made, and kept one: three kept, six made, six removed, one error line per call.
    let spawned = host.spawned();
    assert_eq!(spawned.len(), 3);
    assert!(spawned
        .iter()
        .all(|(_, m, s)| m == "kept.mdl" && s.position[0] == 7.0));
    assert_eq!(host.created_and_removed(), (6, 6));
    assert!((0..3).all(|i| host.is_removed(EntityKey::Engine(i))));
    assert_eq!(
        host.take_errors(),
        ["script: ent_remove: the pointer given is not an entity"; 3]
    );
}

#[test]
fn objects_by_name_and_unknown_names() {
    let mut host = host_with("Objects", |_, a5| {
        match a5.object("camera") {
            Some(Object::View(v)) => v.arc -= 10 * 1024,
            other => panic!("camera is a view, got {other:?}"),
        }
        match a5.object("sky_speed") {
            Some(Object::Vector(s)) => *s = [512, -512],
            other => panic!("{other:?}"),
        }
        let t = match a5.object("time") {
            Some(Object::Var(t)) => *t,
            other => panic!("{other:?}"),
        };
        assert!(a5.object("total_ticks").is_some());
        assert!(a5.object("nothing").is_none());
        t
    });
    host.set_time(0.25, 2.0);
    host.set_camera(&modex_plugin::CameraState {
        position: [0.0; 3],
        pan: 0.0,
        tilt: 0.0,
        roll: 0.0,
        arc: 60.0,
        ambient: 0.0,
        size: [320, 200],
    });
    let mut frame = vec![0u8; 4];
    let time = host
        .call_each_frame(
            "Objects",
            FrameBuffer {
                bytes: &mut frame,
                pitch: 2,
                width: 2,
                height: 2,
                bpp: 1,
            },
        )
        .unwrap();
    assert_eq!(time, 256, "time is 0.25 s in 22.10");
    assert_eq!(host.camera().arc, 50.0);
    assert_eq!(host.camera().size, [320, 200]);
    assert_eq!(host.sky_speed(), [0.5, -0.5]);
    assert_eq!(host.take_errors(), ["script: unknown object 'nothing'"]);
}

#[test]
fn the_frame_is_lockable_only_in_each_frame_calls_and_respects_the_pitch() {
    let mut host = host_with("Fill", |_, a5| {
        let Some(fb) = a5.lock_frame() else { return 0 };
        for y in 0..fb.height {
            let row = y * fb.pitch;
            fb.bytes[row..row + fb.width * fb.bpp].fill(9);
        }
        1
    });
    // Rows of 3 pixels, 2 bytes each, in rows of 8 bytes: the last 2 bytes of each row stay.
    let mut bytes = vec![0u8; 8 * 2];
    let r = host.call_each_frame(
        "Fill",
        FrameBuffer {
            bytes: &mut bytes,
            pitch: 8,
            width: 3,
            height: 2,
            bpp: 2,
        },
    );
    assert_eq!(r.unwrap(), 1);
    assert_eq!(bytes, [9, 9, 9, 9, 9, 9, 0, 0, 9, 9, 9, 9, 9, 9, 0, 0]);
    // In an each-entity call there is no frame.
    let mut host2 = host_with("Fill", |_, a5| a5.lock_frame().is_some() as RawFixed);
    three_entities(&mut host2);
    host2.call_each_entity("Fill").unwrap();
    // A frame that does not fit its bytes is refused before any plugin runs.
    let err = host
        .call_each_frame(
            "Fill",
            FrameBuffer {
                bytes: &mut bytes,
                pitch: 8,
                width: 5,
                height: 2,
                bpp: 2,
            },
        )
        .unwrap_err();
    assert!(matches!(err, CallError::BadFrame { .. }), "{err}");
}

#[test]
fn unknown_functions_name_the_plugins_and_the_function() {
    let mut host = host_with("Known", |_, _| 0);
    let e = host.resolve("Unknown").unwrap_err();
    assert_eq!(e.to_string(), "script has no function 'Unknown'");
    let e = PluginHost::new().resolve("X").unwrap_err();
    assert!(e.to_string().contains("no plugin is loaded"), "{e}");
}

#[test]
fn a_panicking_rust_plugin_is_disabled_and_the_engine_keeps_running() {
    let calls = Rc::new(RefCell::new(0));
    let c = calls.clone();
    let mut host = host_with("Boom", move |_, a5| {
        *c.borrow_mut() += 1;
        // Lock the frame, then panic while holding it.
        let _fb = a5.lock_frame();
        panic!("plugin bug");
    });
    let mut frame = vec![0u8; 4];
    for _ in 0..3 {
        let r = host.call_each_frame(
            "Boom",
            FrameBuffer {
                bytes: &mut frame,
                pitch: 2,
                width: 2,
                height: 2,
                bpp: 1,
            },
        );
        assert!(r.is_ok());
    }
    assert_eq!(*calls.borrow(), 1, "called once, then disabled");
    assert!(host.is_disabled(0));
}

proptest! {
    #[test]
    fn entity_state_survives_the_fixed_point_round_trip(
        x in -100000.0f32..100000.0, pan in -720.0f32..720.0, frame in 0.0f32..1000.0,
        scale in 0.0f32..100.0,
    ) {
        let s = EntityState { position: [x, -x, x / 3.0], pan, frame, scale: [scale; 3], ..EntityState::default() };
        let mut e = modex_plugin::A4Entity::default();
        s.write_to(&mut e);
        let back = EntityState::read_from(&e);
        prop_assert!((back.position[0] - x).abs() <= 1.0 / 1024.0 + x.abs() * 1e-6);
        prop_assert!((back.pan - pan).abs() <= 1.0 / 1024.0 + 1e-4);
        prop_assert!((back.frame - frame).abs() <= 1.0 / 1024.0 + 1e-4);
        // A second trip changes nothing: read-back values are exact in 22.10.
        let mut e2 = modex_plugin::A4Entity::default();
        back.write_to(&mut e2);
        prop_assert_eq!(EntityState::read_from(&e2), back);
    }

    #[test]
    fn vec_rotate_keeps_length_and_pan_turns_about_z(
        v in proptest::array::uniform3(-2000i32..2000), pan in -360i32..360,
    ) {
        let mut r = v.map(|c| c * 1024);
        vec_rotate(&mut r, &[pan * 1024, 0, 0]);
        let len = |a: [i32; 3]| a.iter().map(|&c| (c as f64 / 1024.0).powi(2)).sum::<f64>().sqrt();
        prop_assert!((len(r) - len(v.map(|c| c * 1024))).abs() < 0.05);
        prop_assert!((r[2] - v[2] * 1024).abs() <= 2, "z stays");
    }
}

#[test]
fn vec_rotate_turns_x_towards_y_for_a_pan_of_90() {
    let mut v = [1000 * 1024, 0, 0];
    vec_rotate(&mut v, &[90 * 1024, 0, 0]);
    assert!(v[0].abs() < 4 && (v[1] - 1000 * 1024).abs() < 4, "{v:?}");
}
