//! The core's properties, in one test binary: random grids and boards checked against
//! what must hold whatever they are, and hints walked over the puzzle sets.

mod grids;
mod hint_walks;
mod hints;
