//! Tables in the runtime's format ([`abnf_runtime::wire`]), held in memory
//! so that the generator, its tests and its CLI walk them with the runtime's
//! own code: one implementation of each walk, and every table the generator
//! writes is read back by the code that will read it in users' programs.

/// Table bytes in this machine's byte order, 4-aligned as the runtime
/// needs them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WireBytes(Vec<u32>);

impl WireBytes {
    /// Copies `bytes` (a table written with `big_endian ==
    /// cfg!(target_endian = "big")`) to aligned memory.
    pub fn new(bytes: &[u8]) -> WireBytes {
        let words = bytes
            .chunks(4)
            .map(|c| {
                let mut w = [0u8; 4];
                w[..c.len()].copy_from_slice(c);
                u32::from_ne_bytes(w)
            })
            .collect();
        WireBytes(words)
    }

    /// The bytes.
    pub fn bytes(&self) -> &[u8] {
        bytemuck::cast_slice(&self.0)
    }

    /// The bytes as a recognizer table.
    pub fn table(&self) -> abnf_runtime::Table<'_> {
        abnf_runtime::Table::from_bytes(self.bytes()).unwrap_or_else(|e| read_back_failed(e))
    }

    /// The bytes as the reverse automaton of a table.
    pub fn reverse(&self) -> abnf_runtime::Reverse<'_> {
        abnf_runtime::Reverse::from_bytes(self.bytes()).unwrap_or_else(|e| read_back_failed(e))
    }

    /// The bytes as a network of rule automata.
    pub fn network(&self) -> abnf_runtime::network::Network<'_> {
        abnf_runtime::network::Network::from_bytes(self.bytes()).unwrap_or_else(|e| read_back_failed(e))
    }

    /// The bytes as a tagged DFA.
    pub fn tagged(&self) -> abnf_runtime::TaggedDfa<'_> {
        abnf_runtime::TaggedDfa::from_bytes(self.bytes()).unwrap_or_else(|e| read_back_failed(e))
    }
}

/// Whether tables for this machine are big-endian.
pub const NATIVE_BIG_ENDIAN: bool = cfg!(target_endian = "big");

#[cold]
fn read_back_failed(e: abnf_runtime::wire::WireError) -> ! {
    panic!("abnf-codegen bug: the runtime does not read a table the generator just wrote: {e}")
}
