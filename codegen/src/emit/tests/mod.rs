//! Unit tests of the generator's internals: syntax binding and type naming (`resolve`), and the
//! table-data writer against syn + prettyplease (`data`).

mod data;
mod resolve;
