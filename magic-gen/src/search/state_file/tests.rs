//! The state file's tests: damaged lines refused at their line, naming the value at fault.

use crate::index::Variant;

use super::super::{Options, SearchState};

#[test]
fn a_state_with_index_bits_past_its_square_s_is_refused_at_the_line() {
    // Measuring a white find's blocked slots at 40 bits would allocate 2^40 slots: the
    // reader refuses the line first (found by the `state` fuzz target).
    let text = SearchState::new(&Options::for_variant(Variant::White))
        .unwrap()
        .to_text();
    let line = 1 + text
        .lines()
        .position(|l| l.starts_with("job rook a1 "))
        .unwrap();
    // Nor fewer bits than its 49 attack sets need (6): no scan of them would end.
    let allowed = "6..=12";
    for bits in ["40", "13", "0", "5"] {
        let bad = text.replacen("job rook a1 12 ", &format!("job rook a1 {bits} "), 1);
        let e = SearchState::parse("s.state", bad.as_bytes()).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("s.state:{line}: index bits {bits} out of range for rook a1: {allowed}")
        );
    }
}

#[test]
fn a_state_s_record_reads_its_values_by_place_and_names_the_one_that_is_wrong() {
    let mut options = Options::for_variant(Variant::Black);
    options.limits.polish.evolve = 3000;
    let text = SearchState::new(&options).unwrap().to_text();
    let line_of = |start: &str| 1 + text.lines().position(|l| l.starts_with(start)).unwrap();
    let (job, finish) = (line_of("job rook a1 "), line_of("finish "));
    let error = |from: &str, to: &str| {
        assert!(text.contains(from), "{from}");
        let bad = text.replacen(from, to, 1);
        SearchState::parse("s.state", bad.as_bytes())
            .unwrap_err()
            .to_string()
    };
    // A value that reads as a key is still the value of the key before it.
    assert_eq!(
        error(
            "job rook a1 12 next 0 done 0",
            "job rook a1 12 next done done 0"
        ),
        format!("s.state:{job}: next 'done' is not a number")
    );
    assert_eq!(
        error(
            "job rook a1 12 next 0 done 0",
            "job rook a1 12 next 0 done 2"
        ),
        format!("s.state:{job}: done must be 0 or 1, found '2'")
    );
    assert_eq!(
        error(
            "job rook a1 12 next 0 done 0",
            "job rook a1 12 done 0 next 0"
        ),
        format!("s.state:{job}: unexpected line 'job rook a1 12 done 0 next 0'")
    );
    assert_eq!(
        error(" short-spans 0 ", " short-spans yes "),
        format!("s.state:{finish}: short-spans 'yes' is not 0 or 1")
    );
    assert_eq!(
        error(" evolve 3000 ", " evolve many "),
        format!("s.state:{finish}: evolve 'many' is not a count of evaluations")
    );
}

#[test]
fn a_finish_line_of_the_earlier_fixed_layout_still_reads() {
    let mut options = Options::for_variant(Variant::Black);
    options.limits.polish.evolve = 3000;
    options.limits.pack.short_spans = true;
    options.limits.pack.seeds = 2;
    let state = SearchState::new(&options).unwrap();
    let text = state.to_text();
    // As states were written before each setting was declared once: every key by place.
    let earlier = "finish polish 10000 clump 0 pack-seed 1 pack-iterations 60000 \
                   negative-offsets 0 pack-spread 0 short-spans 1 pack-seeds 2 evolve 3000";
    let line = text.lines().find(|l| l.starts_with("finish ")).unwrap();
    assert_ne!(line, earlier);
    let read = SearchState::parse("s.state", text.replacen(line, earlier, 1).as_bytes()).unwrap();
    assert_eq!((read.polish, read.pack), (state.polish, state.pack));
    // A key no setting has is refused.
    let unknown = text.replacen(line, &format!("{line} pack-speed 3"), 1);
    assert!(SearchState::parse("s.state", unknown.as_bytes()).is_err());
}
