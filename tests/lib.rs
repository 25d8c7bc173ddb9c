//! Integration and conformance tests; see the files under `tests/tests/`.
