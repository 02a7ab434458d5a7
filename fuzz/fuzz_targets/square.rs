//! `Square` conversions on arbitrary input: `FromStr` against magic-gen's independent
//! parser, the name round trip, and `TryFrom<u8>` / `TryFrom<usize>` round trips.
#![no_main]

use libfuzzer_sys::fuzz_target;
use magic_bitboards::Square;

fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        let parsed = s.parse::<Square>().ok();
        assert_eq!(parsed.map(u8::from), magic_gen::parse_square(s), "{s:?}");
        if let Some(sq) = parsed {
            let name = sq.to_string();
            assert_eq!(name, s.to_ascii_lowercase());
            assert_eq!(name.parse::<Square>(), Ok(sq));
        }
    }
    if let Some(&b) = data.first() {
        match Square::try_from(b) {
            Ok(sq) => {
                assert!(b < 64);
                assert_eq!(u8::from(sq), b);
                assert_eq!(sq.index(), b as usize);
            }
            Err(_) => assert!(b >= 64),
        }
    }
    if data.len() >= 8 {
        let n = u64::from_le_bytes(data[..8].try_into().unwrap()) as usize;
        match Square::try_from(n) {
            Ok(sq) => assert_eq!(usize::from(sq), n),
            Err(_) => assert!(n >= 64),
        }
    }
});
