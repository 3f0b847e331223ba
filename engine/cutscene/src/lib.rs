//! # modex-cutscene — Battle Isle 2 cutscenes
//!
//! LIB archives, TPWM compression, BBHD clips, ASCR scripts, ATXT text, VOC sound and palettes, and
//! the sequencer that plays them.
