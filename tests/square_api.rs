//! The engine-facing square API against independent computations: `TryFrom<u32>`, the
//! `squares` iterator (both ends, its length), `File`/`Rank` and the flips, and the text
//! forms of files, ranks and colours.

use magic_bitboards::{
    squares, Color, File, ParseColorError, ParseFileError, ParseRankError, Rank, Square,
    SquareOutOfRange,
};

mod common;

use common::Rng;

#[test]
fn try_from_u32_takes_exactly_the_board() {
    for i in 0..64u32 {
        assert_eq!(Square::try_from(i).map(Square::index), Ok(i as usize));
    }
    for i in [64, 65, 255, 256, 1 << 20, u32::MAX] {
        assert_eq!(Square::try_from(i), Err(SquareOutOfRange), "{i}");
    }
    // What trailing_zeros gives: the lowest square, or 64 for an empty board.
    assert_eq!(Square::try_from(0x0100u64.trailing_zeros()), Ok(Square::A2));
    assert_eq!(
        Square::try_from(0u64.trailing_zeros()),
        Err(SquareOutOfRange)
    );
}

/// The squares of `bb` by testing each bit.
fn naive(bb: u64) -> Vec<Square> {
    Square::ALL
        .into_iter()
        .filter(|sq| bb & sq.bit() != 0)
        .collect()
}

#[test]
fn squares_visits_each_set_bit_once_in_order_from_either_end() {
    let mut rng = Rng(0x5a_0a7e_5eed);
    let mut boards = vec![0, u64::MAX, 1, 1 << 63, 0x8000_0000_0000_0001];
    boards.extend(Square::ALL.map(Square::bit));
    boards.extend((0..2000).map(|_| rng.occupancy()));
    for bb in boards {
        let want = naive(bb);
        let forward: Vec<Square> = squares(bb).collect();
        assert_eq!(forward, want, "{bb:#018x}");
        let mut backward: Vec<Square> = squares(bb).rev().collect();
        backward.reverse();
        assert_eq!(backward, want, "{bb:#018x} from the back");
        assert_eq!(squares(bb).len(), want.len());
        assert_eq!(squares(bb).count(), want.len());
        assert_eq!(squares(bb).last(), want.last().copied());
        // From both ends at once: the two meet without a square twice or missed.
        let mut it = squares(bb);
        let (mut front, mut back) = (Vec::new(), Vec::new());
        loop {
            assert_eq!(it.len(), want.len() - front.len() - back.len());
            let Some(sq) = it.next() else { break };
            front.push(sq);
            let Some(sq) = it.next_back() else { break };
            back.push(sq);
        }
        back.reverse();
        front.extend(back);
        assert_eq!(front, want, "{bb:#018x} from both ends");
        assert_eq!(it.next(), None);
        assert_eq!(it.next_back(), None);
        assert_eq!(it.remaining(), 0);
    }
    let mut it = squares(Square::C3.bit() | Square::F6.bit());
    it.next();
    assert_eq!(it.remaining(), Square::F6.bit());
}

#[test]
fn files_and_ranks_cut_the_board_into_lines() {
    let mut by_files = 0u64;
    for (i, file) in File::ALL.into_iter().enumerate() {
        assert_eq!(file.index(), i);
        assert_eq!(File::new(i as u8), Some(file));
        assert_eq!(file.bitboard().count_ones(), 8);
        assert_eq!(file.flip().index(), 7 - i);
        assert_eq!(by_files & file.bitboard(), 0);
        by_files |= file.bitboard();
    }
    assert_eq!(by_files, u64::MAX);
    let mut by_ranks = 0u64;
    for (i, rank) in Rank::ALL.into_iter().enumerate() {
        assert_eq!(rank.index(), i);
        assert_eq!(Rank::new(i as u8), Some(rank));
        assert_eq!(rank.bitboard(), 0xff << (8 * i));
        assert_eq!(rank.flip().index(), 7 - i);
        assert_eq!(rank.relative_to(Color::White), rank);
        assert_eq!(rank.relative_to(Color::Black), rank.flip());
        by_ranks |= rank.bitboard();
    }
    assert_eq!(by_ranks, u64::MAX);
    assert_eq!(File::new(8), None);
    assert_eq!(Rank::new(255), None);
    for sq in Square::ALL {
        let (file, rank) = (File::of(sq), Rank::of(sq));
        // Typed: `file()` and `rank()` return the coordinate types, as the peers' do.
        let (of_sq, on_sq): (File, Rank) = (sq.file(), sq.rank());
        assert_eq!((of_sq, on_sq), (file, rank));
        assert_eq!(file.index(), sq.index() % 8);
        assert_eq!(rank.index(), sq.index() / 8);
        assert_eq!(Square::from_coords(file, rank), sq);
        assert_eq!(file.bitboard() & rank.bitboard(), sq.bit(), "{sq}");
    }
}

#[test]
fn flips_mirror_the_board() {
    for sq in Square::ALL {
        let (f, r) = (File::of(sq), Rank::of(sq));
        assert_eq!(sq.flip_rank(), Square::from_coords(f, r.flip()), "{sq}");
        assert_eq!(sq.flip_file(), Square::from_coords(f.flip(), r), "{sq}");
        assert_eq!(sq.flip_rank().flip_rank(), sq);
        assert_eq!(sq.flip_file().flip_file(), sq);
        assert_eq!(sq.relative_to(Color::White), sq);
        assert_eq!(sq.relative_to(Color::Black), sq.flip_rank());
        // A rank flip of the square is a byte swap of its bitboard.
        assert_eq!(sq.flip_rank().bit(), sq.bit().swap_bytes());
    }
    assert_eq!(Square::A1.flip_rank(), Square::A8);
    assert_eq!(Square::E2.flip_rank(), Square::E7);
    assert_eq!(Square::A1.flip_file(), Square::H1);
    assert_eq!(Square::D5.flip_file(), Square::E5);
}

#[test]
fn files_ranks_and_colours_print_and_parse_as_square_names_do() {
    for sq in Square::ALL {
        let (file, rank) = (File::of(sq), Rank::of(sq));
        assert_eq!(format!("{file}{rank}"), sq.to_string());
        assert_eq!(file.to_string().parse(), Ok(file));
        assert_eq!(rank.to_string().parse(), Ok(rank));
        assert_eq!(file.to_string().to_uppercase().parse(), Ok(file));
        assert_eq!(file.char().to_string(), file.to_string());
        assert_eq!(rank.char().to_string(), rank.to_string());
        assert_eq!(u8::from(file) as usize, file.index());
        assert_eq!(usize::from(rank), rank.index());
    }
    for bad in ["", "i", "@", "`", "ab", "a ", " a", "1", "é"] {
        assert_eq!(bad.parse::<File>(), Err(ParseFileError), "{bad:?}");
    }
    for bad in ["", "0", "9", "11", "a", "1 ", "٣"] {
        assert_eq!(bad.parse::<Rank>(), Err(ParseRankError), "{bad:?}");
    }
    // Padding and alignment apply, as for other one-word `Display`s.
    assert_eq!(format!("[{:>3}|{:<2}]", File::C, Rank::Fifth), "[  c|5 ]");

    assert_eq!(Color::White.to_string(), "white");
    assert_eq!(Color::Black.to_string(), "black");
    for color in Color::ALL {
        assert_eq!(color.to_string().parse(), Ok(color));
        assert_eq!(color.char().to_string().parse(), Ok(color));
        assert_eq!(color.to_string().to_uppercase().parse(), Ok(color));
        assert_eq!(
            color.char().to_ascii_uppercase().to_string().parse(),
            Ok(color)
        );
    }
    assert_eq!(Color::White.char(), 'w');
    assert_eq!(Color::Black.char(), 'b');
    for bad in ["", "x", "wb", "whit", "whites", "bl", " w", "white "] {
        assert_eq!(bad.parse::<Color>(), Err(ParseColorError), "{bad:?}");
    }
}
