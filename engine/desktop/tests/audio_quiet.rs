//! With no sound device, opening the audio output says one line (through `log`) and nothing else:
//! libasound's own error lines must not reach stderr.
//!
//! The test runs itself again as a child process (with `MODEX_AUDIO_CHILD` set) so the child's
//! stderr, where the C library writes, can be captured and read.

#[test]
fn opening_audio_prints_no_alsa_lines() {
    if std::env::var_os("MODEX_AUDIO_CHILD").is_some() {
        let mixer = modex::Mixer::default();
        let out = modex_desktop::AudioOutput::open(&mixer);
        eprintln!("audible: {}", out.is_audible());
        return;
    }
    let exe = std::env::current_exe().unwrap();
    let child = std::process::Command::new(exe)
        .args([
            "--exact",
            "opening_audio_prints_no_alsa_lines",
            "--nocapture",
        ])
        .env("MODEX_AUDIO_CHILD", "1")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&child.stderr);
    assert!(child.status.success(), "child failed: {stderr}");
    assert!(
        stderr.contains("audible: "),
        "child did not open audio: {stderr}"
    );
    assert!(
        !stderr.lines().any(|l| l.starts_with("ALSA lib")),
        "libasound wrote to stderr:\n{stderr}"
    );
}
