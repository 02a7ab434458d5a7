pub const VARIANT: &str = "plain";
pub const ROOK: [Magic; 64] = [
    Magic { magic: 0x1, mask: 0x000101010101017e, shift: 52, offset: 0 }, // a1
];
