//! The core rules of RFC 5234 Appendix B.1, always available to every
//! grammar. A grammar that defines a rule of the same name (RFC 1738's
//! `digit`, say) uses its own.
//!
//! Terminal values are Unicode code points matched as UTF-8, so `OCTET`
//! (`%x00-FF`) means the code points U+0000 to U+00FF, not raw bytes.

/// The name under which the core rules appear in diagnostics.
pub const CORE_FILE_NAME: &str = "<RFC 5234 core rules>";

/// RFC 5234 Appendix B.1, verbatim apart from the comments.
pub const CORE_RULES: &str = "\
ALPHA          =  %x41-5A / %x61-7A   ; A-Z / a-z
BIT            =  \"0\" / \"1\"
CHAR           =  %x01-7F             ; any 7-bit US-ASCII character, excluding NUL
CR             =  %x0D                ; carriage return
CRLF           =  CR LF               ; Internet standard newline
CTL            =  %x00-1F / %x7F      ; controls
DIGIT          =  %x30-39             ; 0-9
DQUOTE         =  %x22                ; \" (Double Quote)
HEXDIG         =  DIGIT / \"A\" / \"B\" / \"C\" / \"D\" / \"E\" / \"F\"
HTAB           =  %x09                ; horizontal tab
LF             =  %x0A                ; linefeed
LWSP           =  *(WSP / CRLF WSP)   ; linear white space (past newline)
OCTET          =  %x00-FF             ; 8 bits of data
SP             =  %x20
VCHAR          =  %x21-7E             ; visible (printing) characters
WSP            =  SP / HTAB           ; white space
";
