//! The macros that turn the message table (`message.rs`) into code, so each message is written
//! down once: its variant and fields, its code, its name, and each field's JSON key in wire order.
//!
//! [`messages!`] makes one direction's enum and, from the same lines, `name`, `code`, the decoder
//! (`read`: a code byte → its variant, fields read in table order), the encoder (`write`) and, with
//! the `serde` feature, the JSON entries and their reader. [`updates!`] does the same for the
//! entity-update structs, whose code bits say which of their (optional) fields follow. A field's
//! type says how it travels ([`crate::codec::Field`]) and how it is shown
//! (`crate::json::JsonField`); the tables never spell out bytes.
//!
//! A variant is one of four shapes, written as in Rust plus a `=> "key"` per field:
//! - unit: `Leave = 0x08, "svc_leave";`
//! - fields: `Create { index: i16 => "index", id: i16 => "id" } = 0x03, "svc_create";`
//! - one field without a Rust name: `User(Vec<u8> => "bytes") = USER_CODE, "user";`
//! - an update family, whose codes and fields its type knows: `Update1(Update1), "svc_update1";`
//!
//! A field may list the names of its wire parts in brackets (`=> "color" ["color.b", "color.g",
//! "color.r"]`): errors name the parts so, and a pair's parts are its two JSON keys. A name may be
//! followed by aliases that JSON input also accepts (`"svc_effect" | "svc_particle"`).

/// One direction's message enum and its codec; see the module docs for the syntax.
macro_rules! messages {
    (
        $(#[$em:meta])*
        pub enum $E:ident from $dir:expr;
        $(
            $(#[$vm:meta])*
            $V:ident
            $( ( $T:ty $(=> $tkey:literal)? ) )?
            $( {
                $( $(#[$fm:meta])* $f:ident : $ft:ty => $key:literal $([ $($part:literal),* ])? ),*
                $(,)?
            } )?
            $(= $code:tt)? , $name:literal $(| $alias:literal)* ;
        )*
    ) => {
        $(#[$em])*
        pub enum $E {
            $(
                $(#[$vm])*
                $V $( ( $T ) )? $( { $( $(#[$fm])* $f: $ft ),* } )?,
            )*
        }

        impl $E {
            /// The message's name, lower case, as the CLI prints it.
            pub fn name(&self) -> &'static str {
                match self {
                    $( Self::$V { .. } => $name, )*
                }
            }

            /// The code byte this message goes out under.
            pub fn code(&self) -> u8 {
                match self {
                    $(
                        $crate::table::variant!(@code_pat inner [$V $( ( $T $(=> $tkey)? ) )?] $($code)?)
                            => $crate::table::variant!(@code inner [$V $( ( $T $(=> $tkey)? ) )?] $($code)?),
                    )*
                }
            }

            /// The message whose code byte is at `pos` of `data`, and where the next one starts.
            pub(crate) fn read(
                data: &[u8],
                pos: usize,
                opts: $crate::decode::DecodeOptions,
            ) -> Result<(Self, usize), $crate::decode::DecodeError> {
                let code = data[pos];
                let mut r;
                let message = match code {
                    $(
                        $crate::table::variant!(@codes [$V $( ( $T $(=> $tkey)? ) )?] $($code)?) => {
                            r = $crate::codec::Reader::at(data, pos, $name, opts)?;
                            $crate::table::variant!(@read r code [$V
                                $( ( $T $(=> $tkey)? ) )?
                                $( { $( $f : $ft => $key [$( $($part),* )?] ),* } )?
                            ])
                        }
                    )*
                    _ => {
                        return Err($crate::decode::DecodeError::UnknownCode {
                            direction: $dir,
                            code,
                            offset: pos,
                        })
                    }
                };
                Ok((message, r.pos()))
            }

            /// Appends the message (code byte and arguments) to `buf`.
            pub(crate) fn write(&self, buf: &mut Vec<u8>) -> Result<(), $crate::encode::EncodeError> {
                let w = &mut $crate::codec::Writer::new(buf, self.name());
                w.bytes(&[self.code()]);
                match self {
                    $(
                        $crate::table::variant!(@bind inner [$V $( ( $T ) )? $( { $($f),* } )?])
                            => $crate::table::variant!(@write w inner [$V
                                $( ( $T $(=> $tkey)? ) )?
                                $( { $( $f : $ft => $key [$( $($part),* )?] ),* } )?
                            ]),
                    )*
                }
            }

            /// The message's JSON entries: `message`, then the fields in table (wire) order.
            #[cfg(feature = "serde")]
            pub(crate) fn entries(&self) -> $crate::json::Entries {
                let mut out = vec![("message", $crate::json::Json::from(self.name()))];
                match self {
                    $(
                        $crate::table::variant!(@bind inner [$V $( ( $T ) )? $( { $($f),* } )?])
                            => $crate::table::variant!(@put out inner [$V
                                $( ( $T $(=> $tkey)? ) )?
                                $( { $( $f : $ft => $key [$( $($part),* )?] ),* } )?
                            ]),
                    )*
                }
                out
            }

            /// The message a JSON object names (`None`: this direction has no such name), its
            /// fields read in table order.
            #[cfg(feature = "serde")]
            pub(crate) fn take(obj: &mut $crate::json::Object) -> Result<Option<Self>, String> {
                let name = obj.name().to_string();
                Ok(Some(match name.as_str() {
                    $(
                        $name $(| $alias)* => $crate::table::variant!(@take obj [$V
                            $( ( $T $(=> $tkey)? ) )?
                            $( { $( $f : $ft => $key [$( $($part),* )?] ),* } )?
                        ]),
                    )*
                    _ => return Ok(None),
                }))
            }
        }
    };
}

/// The per-shape pieces of [`messages!`]: a pattern or an expression for one variant. (Match arms
/// cannot come out of a macro, their patterns and expressions can.) `$b` is the binding the caller
/// names for a tuple variant's value, so the pattern and the expression share it.
macro_rules! variant {
    // The code: given for fixed codes, the value's own for an update family.
    (@code_pat $b:ident [$V:ident $($shape:tt)*] $code:tt) => { Self::$V { .. } };
    (@code_pat $b:ident [$V:ident ( $T:ty )]) => { Self::$V($b) };
    (@code $b:ident [$($shape:tt)*] $code:tt) => { $code };
    (@code $b:ident [$V:ident ( $T:ty )]) => { <$T as $crate::codec::Family>::code($b) };
    (@codes [$($shape:tt)*] $code:tt) => { $code };
    (@codes [$V:ident ( $T:ty )]) => {
        <$T as $crate::codec::Family>::FIRST_CODE..=<$T as $crate::codec::Family>::LAST_CODE
    };

    // A field's key.
    (@key $key:literal [$($part:literal),*]) => {
        $crate::codec::Key { name: $key, parts: &[$($part),*] }
    };

    // Decode.
    (@read $r:ident $code:ident [$V:ident]) => { Self::$V };
    (@read $r:ident $code:ident [$V:ident { $( $f:ident : $ft:ty => $key:literal [$($part:literal),*] ),* }]) => {
        Self::$V {
            $( $f: <$ft as $crate::codec::Field>::read(
                &mut $r,
                $crate::table::variant!(@key $key [$($part),*]),
            )?, )*
        }
    };
    (@read $r:ident $code:ident [$V:ident ( $T:ty => $key:literal )]) => {
        Self::$V(<$T as $crate::codec::Field>::read(&mut $r, $crate::codec::Key::element($key))?)
    };
    (@read $r:ident $code:ident [$V:ident ( $T:ty )]) => {
        Self::$V(<$T as $crate::codec::Family>::read(&mut $r, $code)?)
    };

    // Bind a variant's values (struct fields by their names, a tuple's value as `$b`).
    (@bind $b:ident [$V:ident]) => { Self::$V };
    (@bind $b:ident [$V:ident { $($f:ident),* }]) => { Self::$V { $($f),* } };
    (@bind $b:ident [$V:ident ( $T:ty )]) => { Self::$V($b) };

    // Encode.
    (@write $w:ident $b:ident [$V:ident]) => { Ok(()) };
    (@write $w:ident $b:ident [$V:ident { $( $f:ident : $ft:ty => $key:literal [$($part:literal),*] ),* }]) => {{
        $( $crate::codec::Field::write($f, $w, $crate::table::variant!(@key $key [$($part),*]))?; )*
        Ok(())
    }};
    (@write $w:ident $b:ident [$V:ident ( $T:ty => $key:literal )]) => {
        $crate::codec::Field::write($b, $w, $crate::codec::Key::element($key))
    };
    (@write $w:ident $b:ident [$V:ident ( $T:ty )]) => { $crate::codec::Family::write($b, $w) };

    // JSON out.
    (@put $out:ident $b:ident [$V:ident]) => { () };
    (@put $out:ident $b:ident [$V:ident { $( $f:ident : $ft:ty => $key:literal [$($part:literal),*] ),* }]) => {{
        $( $crate::json::JsonField::put($f, $crate::table::variant!(@key $key [$($part),*]), &mut $out); )*
    }};
    (@put $out:ident $b:ident [$V:ident ( $T:ty => $key:literal )]) => {
        $crate::json::JsonField::put($b, $crate::codec::Key::element($key), &mut $out)
    };
    (@put $out:ident $b:ident [$V:ident ( $T:ty )]) => {
        $crate::json::JsonFamily::put($b, &mut $out)
    };

    // JSON in.
    (@take $obj:ident [$V:ident]) => { Self::$V };
    (@take $obj:ident [$V:ident { $( $f:ident : $ft:ty => $key:literal [$($part:literal),*] ),* }]) => {
        Self::$V {
            $( $f: $obj.required($crate::table::variant!(@key $key [$($part),*]))?, )*
        }
    };
    (@take $obj:ident [$V:ident ( $T:ty => $key:literal )]) => {
        Self::$V($obj.required($crate::codec::Key::element($key))?)
    };
    (@take $obj:ident [$V:ident ( $T:ty )]) => {
        Self::$V(<$T as $crate::json::JsonFamily>::take($obj)?)
    };
}

/// The entity-update structs: `entity`, then optional fields, one per code bit in table order, the
/// code computed from the fields present (so a value can never disagree with its code). A code
/// bit that names no field is refused when decoded.
macro_rules! updates {
    ($(
        $(#[$sm:meta])*
        pub struct $S:ident = $base:literal {
            $( $(#[$fm:meta])* $f:ident : $ft:ty => $key:literal $([ $($part:literal),* ])? ),*
            $(,)?
        }
    )*) => {$(
        $(#[$sm])*
        pub struct $S {
            /// Entity index.
            pub entity: i16,
            $( $(#[$fm])* pub $f: Option<$ft>, )*
        }

        impl $S {
            /// Base code of the family.
            pub const BASE: u8 = $base;

            /// The code these fields go out under.
            pub fn code(&self) -> u8 {
                let present = [$( self.$f.is_some() ),*];
                present
                    .iter()
                    .enumerate()
                    .fold(Self::BASE, |code, (bit, &on)| code | (u8::from(on) << bit))
            }
        }

        impl $crate::codec::Family for $S {
            const FIRST_CODE: u8 = $base;

            fn code(&self) -> u8 {
                $S::code(self)
            }

            fn read(
                r: &mut $crate::codec::Reader<'_>,
                code: u8,
            ) -> Result<Self, $crate::decode::DecodeError> {
                let fields = [$( stringify!($f) ),*].len() as u32;
                let unused = (code & 0x3f) >> fields;
                if unused != 0 {
                    return Err(r.unused_bit(code, fields + unused.trailing_zeros()));
                }
                let entity = $crate::codec::Field::read(r, $crate::codec::Key::element("entity"))?;
                let mut sent = (0..6).map(|bit| code & (1 << bit) != 0);
                Ok($S {
                    entity,
                    $( $f: match sent.next() {
                        Some(true) => Some($crate::codec::Field::read(
                            r,
                            $crate::table::variant!(@key $key [$( $($part),* )?]),
                        )?),
                        _ => None,
                    }, )*
                })
            }

            fn write(
                &self,
                w: &mut $crate::codec::Writer<'_>,
            ) -> Result<(), $crate::encode::EncodeError> {
                $crate::codec::Field::write(&self.entity, w, $crate::codec::Key::element("entity"))?;
                $( if let Some(v) = &self.$f {
                    $crate::codec::Field::write(v, w, $crate::table::variant!(@key $key [$( $($part),* )?]))?;
                } )*
                Ok(())
            }
        }

        #[cfg(feature = "serde")]
        impl $crate::json::JsonFamily for $S {
            fn put(&self, out: &mut $crate::json::Entries) {
                $crate::json::JsonField::put(&self.entity, $crate::codec::Key::element("entity"), out);
                $( if let Some(v) = &self.$f {
                    $crate::json::JsonField::put(v, $crate::table::variant!(@key $key [$( $($part),* )?]), out);
                } )*
            }

            fn take(obj: &mut $crate::json::Object) -> Result<Self, String> {
                Ok($S {
                    entity: obj.required($crate::codec::Key::element("entity"))?,
                    $( $f: $crate::json::JsonField::take(
                        obj,
                        $crate::table::variant!(@key $key [$( $($part),* )?]),
                    )?, )*
                })
            }
        }
    )*};
}

pub(crate) use {messages, updates, variant};
