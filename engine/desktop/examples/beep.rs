//! Plays a one-second 440 Hz beep through the mixer on the default audio device, or reports that it
//! runs silent. `cargo run -p modex-desktop --example beep`
fn main() {
    init_stderr_log();
    let mixer = modex::Mixer::default();
    let out = modex_desktop::AudioOutput::open(&mixer);
    let rate = 22_050;
    let tone: Vec<f32> = (0..rate)
        .map(|i| (i as f32 * 440.0 * std::f32::consts::TAU / rate as f32).sin() * 0.3)
        .collect();
    mixer.play(
        1,
        &modex::Sound::new(rate, tone),
        1.0,
        modex::Repeat::Times(1),
    );
    println!("audible: {}", out.is_audible());
    std::thread::sleep(std::time::Duration::from_millis(if out.is_audible() {
        1100
    } else {
        0
    }));
}

/// No logger crate is a dependency; print warnings to stderr through a minimal logger.
fn init_stderr_log() {
    struct Stderr;
    impl log::Log for Stderr {
        fn enabled(&self, _: &log::Metadata) -> bool {
            true
        }
        fn log(&self, r: &log::Record) {
            eprintln!("[{}] {}", r.level(), r.args());
        }
        fn flush(&self) {}
    }
    static LOGGER: Stderr = Stderr;
    let _ = log::set_logger(&LOGGER);
    log::set_max_level(log::LevelFilter::Info);
}
