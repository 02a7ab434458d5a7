//! What the `state` fuzz target checks on one input, shared with the regression test that
//! replays the corpus and every crash (magic-gen/tests/fuzz_corpus.rs): the search state
//! reader (`SearchState::parse_with_pack`, what `search --resume`, `merge` and `pack --state`
//! read after a crash) returns `Err`, never panics; a state it accepts writes back to text
//! that reads back equal, and what a resume and a merge then compute from it (the budget
//! used, a raised budget, a merge of it alone and with a copy) never panics either.

use magic_gen::search::SearchState;

pub fn check(data: &[u8]) {
    let Ok((state, pack)) = SearchState::parse_with_pack("fuzz.state", data) else {
        return;
    };
    let text = state.to_text_with(&pack);
    let (again, pack_again) = SearchState::parse_with_pack("again.state", text.as_bytes())
        .expect("a written state reads back");
    assert_eq!(again, state);
    assert_eq!(pack_again, pack);
    let _ = state.budget_used();
    let mut raised = state.clone();
    if let Ok(()) = raised.raise_budget(u64::MAX / 2) {
        let _ = raised.budget_used();
    }
    let _ = SearchState::merge(std::slice::from_ref(&state));
    // The same shard twice: refused, naming both.
    assert!(SearchState::merge(&[state.clone(), state]).is_err());
}
