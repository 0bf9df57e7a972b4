/// Rounds to whole cents of five.
pub(crate) fn round(x: u64) -> u64 {
    x - x % 5
}

pub(crate) const SEASON_PERCENT: u64 = 15;
