//! Reads a term as the engine writes it (`write_canonical/2`: `write_term/3` with
//! `quoted(true)` and `ignore_ops(true)`) into a [`PlTerm`].
//!
//! The worker sends answers as this text rather than as the engine's own term
//! conversion, which is quadratic in a list's length. The reader is linear and does
//! not recurse: in that syntax a list is a chain `'.'(H1,'.'(H2,…))` nested as deep as
//! the list is long, and the chain is read into one vector without nesting. Other
//! nesting (compound arguments) is bounded by a depth limit, so that nothing
//! downstream (the JSON conversion, dropping the term) can exhaust the stack.

use super::PlTerm;

/// Why an answer's text could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReadError {
    /// The answer nests compound terms deeper than the limit (lists do not count:
    /// a list of any length is one level).
    #[error("the answer nests terms more than {0} levels deep")]
    TooDeep(usize),
    /// Not the syntax the engine writes (a bug, reported rather than guessed).
    #[error("unreadable answer at byte {at}: {why}")]
    Syntax { at: usize, why: &'static str },
}

/// Reads `text`, refusing terms nested more than `max_depth` levels.
pub fn read_term(text: &str, max_depth: usize) -> Result<PlTerm, ReadError> {
    Reader {
        src: text.as_bytes(),
        text,
        at: 0,
    }
    .read(max_depth)
}

/// A term being built.
enum Frame {
    /// `name(` … : the arguments read so far.
    Args(String, Vec<PlTerm>),
    /// A `'.'(H, T)` chain: the heads read so far, how many `'.'(` are open, and
    /// whether the next term read is a tail.
    Chain {
        heads: Vec<PlTerm>,
        open: usize,
        tail: bool,
    },
    /// `[` … in list syntax: the items so far, and whether a `|` tail follows.
    Bracket(Vec<PlTerm>, bool),
    /// `{` … `}`.
    Curly,
    /// `(` … `)`.
    Paren,
}

enum Token {
    /// A name; `true` when `(` follows at once (a functor).
    Name(String, bool),
    Term(PlTerm),
    Punct(u8),
}

struct Reader<'a> {
    src: &'a [u8],
    text: &'a str,
    at: usize,
}

const SYMBOL_CHARS: &[u8] = b"#$&*+-./:<=>?@^~\\";

impl Reader<'_> {
    fn fail<T>(&self, why: &'static str) -> Result<T, ReadError> {
        Err(ReadError::Syntax { at: self.at, why })
    }

    fn read(mut self, max_depth: usize) -> Result<PlTerm, ReadError> {
        let mut stack: Vec<Frame> = Vec::new();
        loop {
            let Some(value) = self.open(&mut stack, max_depth)? else {
                continue;
            };
            if let Some(done) = self.close(&mut stack, value)? {
                return Ok(done);
            }
        }
    }

    /// Reads the start of a term: a complete term, or `None` when it opened a
    /// nested one (a frame pushed on `stack`).
    fn open(
        &mut self,
        stack: &mut Vec<Frame>,
        max_depth: usize,
    ) -> Result<Option<PlTerm>, ReadError> {
        let value = match self.token()? {
            Token::Name(name, true) => {
                self.at += 1; // the `(`
                if name == "." {
                    if let Some(Frame::Chain { open, tail, .. }) = stack.last_mut()
                        && *tail
                    {
                        *open += 1;
                        *tail = false;
                        return Ok(None);
                    }
                    stack.push(Frame::Chain {
                        heads: Vec::new(),
                        open: 1,
                        tail: false,
                    });
                } else {
                    stack.push(Frame::Args(name, Vec::new()));
                }
                if stack.len() > max_depth {
                    return Err(ReadError::TooDeep(max_depth));
                }
                return Ok(None);
            }
            Token::Name(name, false) => PlTerm::Atom(name),
            Token::Term(t) => t,
            Token::Punct(b'[') => {
                if self.peek_punct(b']') {
                    PlTerm::List(Vec::new())
                } else {
                    stack.push(Frame::Bracket(Vec::new(), false));
                    if stack.len() > max_depth {
                        return Err(ReadError::TooDeep(max_depth));
                    }
                    return Ok(None);
                }
            }
            Token::Punct(b'{') => {
                if self.peek_punct(b'}') {
                    PlTerm::Atom("{}".into())
                } else {
                    stack.push(Frame::Curly);
                    return Ok(None);
                }
            }
            Token::Punct(b'(') => {
                stack.push(Frame::Paren);
                return Ok(None);
            }
            Token::Punct(_) => return self.fail("a term was expected"),
        };
        Ok(Some(value))
    }

    /// Hands a complete term to the frames that wait for it, closing each it
    /// completes: the whole answer when none waits, else `None` when the next
    /// term is to be read.
    fn close(
        &mut self,
        stack: &mut Vec<Frame>,
        mut value: PlTerm,
    ) -> Result<Option<PlTerm>, ReadError> {
        loop {
            let Some(frame) = stack.last_mut() else {
                self.skip_space();
                if self.at != self.src.len() {
                    return self.fail("text after the answer");
                }
                return Ok(Some(value));
            };
            match frame {
                Frame::Args(_, args) => {
                    args.push(value);
                    match self.punct()? {
                        b',' => return Ok(None),
                        b')' => {}
                        _ => return self.fail("`,` or `)` was expected"),
                    }
                    let Some(Frame::Args(name, args)) = stack.pop() else {
                        unreachable!("the top frame is Args")
                    };
                    value = PlTerm::Compound(name, args);
                }
                Frame::Chain { heads, tail, .. } if !*tail => {
                    heads.push(value);
                    if self.punct()? != b',' {
                        return self.fail("`,` was expected in a list cell");
                    }
                    *tail = true;
                    return Ok(None);
                }
                Frame::Chain { open, .. } => {
                    for _ in 0..*open {
                        if self.punct()? != b')' {
                            return self.fail("`)` was expected after a list tail");
                        }
                    }
                    let Some(Frame::Chain { heads, .. }) = stack.pop() else {
                        unreachable!("the top frame is Chain")
                    };
                    value = list(heads, value);
                }
                Frame::Bracket(items, in_tail) => {
                    if *in_tail {
                        if self.punct()? != b']' {
                            return self.fail("`]` was expected after a list tail");
                        }
                        let Some(Frame::Bracket(items, _)) = stack.pop() else {
                            unreachable!("the top frame is Bracket")
                        };
                        value = list(items, value);
                        continue;
                    }
                    items.push(value);
                    match self.punct()? {
                        b',' => return Ok(None),
                        b'|' => {
                            *in_tail = true;
                            return Ok(None);
                        }
                        b']' => {}
                        _ => return self.fail("`,`, `|` or `]` was expected"),
                    }
                    let Some(Frame::Bracket(items, _)) = stack.pop() else {
                        unreachable!("the top frame is Bracket")
                    };
                    value = list(items, PlTerm::List(Vec::new()));
                }
                Frame::Curly => {
                    if self.punct()? != b'}' {
                        return self.fail("`}` was expected");
                    }
                    stack.pop();
                    value = PlTerm::Compound("{}".into(), vec![value]);
                }
                Frame::Paren => {
                    if self.punct()? != b')' {
                        return self.fail("`)` was expected");
                    }
                    stack.pop();
                }
            }
        }
    }

    fn skip_space(&mut self) {
        while self.at < self.src.len() && self.src[self.at].is_ascii_whitespace() {
            self.at += 1;
        }
    }

    fn peek_punct(&mut self, want: u8) -> bool {
        self.skip_space();
        if self.src.get(self.at) == Some(&want) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn punct(&mut self) -> Result<u8, ReadError> {
        self.skip_space();
        match self.src.get(self.at) {
            Some(&b) => {
                self.at += 1;
                Ok(b)
            }
            None => self.fail("the answer ended early"),
        }
    }

    fn token(&mut self) -> Result<Token, ReadError> {
        self.skip_space();
        let start = self.at;
        let Some(&c) = self.src.get(start) else {
            return self.fail("the answer ended early");
        };
        let name = |r: &mut Self, name: String| {
            let functor = r.src.get(r.at) == Some(&b'(');
            Ok(Token::Name(name, functor))
        };
        match c {
            b'0'..=b'9' => self.number(false),
            b'-' if self.src.get(start + 1).is_some_and(u8::is_ascii_digit) => {
                self.at += 1;
                self.number(true)
            }
            b'\'' => {
                let text = self.quoted(b'\'')?;
                name(self, text)
            }
            b'"' => Ok(Token::Term(PlTerm::Str(self.quoted(b'"')?))),
            b'`' => Ok(Token::Term(PlTerm::Str(self.quoted(b'`')?))),
            b'_' | b'A'..=b'Z' => {
                let end = self.word_end(start);
                self.at = end;
                Ok(Token::Term(PlTerm::Var(self.text[start..end].to_string())))
            }
            b'a'..=b'z' => {
                let end = self.word_end(start);
                self.at = end;
                name(self, self.text[start..end].to_string())
            }
            // `[]` and `{}` are names too (`{}(x)` is a compound).
            b'[' | b'{' if self.src.get(start + 1) == Some(&(c + 2)) => {
                self.at = start + 2;
                let functor = self.src.get(self.at) == Some(&b'(');
                if c == b'[' && !functor {
                    return Ok(Token::Term(PlTerm::List(Vec::new())));
                }
                name(self, self.text[start..self.at].to_string())
            }
            b'!' | b';' => {
                self.at += 1;
                name(self, (c as char).to_string())
            }
            b'(' | b')' | b'[' | b']' | b'{' | b'}' | b',' | b'|' => {
                self.at += 1;
                Ok(Token::Punct(c))
            }
            _ if SYMBOL_CHARS.contains(&c) => {
                let mut end = start;
                while end < self.src.len() && SYMBOL_CHARS.contains(&self.src[end]) {
                    end += 1;
                }
                self.at = end;
                name(self, self.text[start..end].to_string())
            }
            _ if c >= 0x80 => {
                // A name the writer left unquoted in another script (variables are
                // always written `_N`).
                let end = self.word_end(start);
                self.at = end;
                name(self, self.text[start..end].to_string())
            }
            _ => self.fail("an unexpected character"),
        }
    }

    /// The end of a word starting at `start`: ASCII letters, digits and `_`, and
    /// any character beyond ASCII (the writer quotes a name whose characters would
    /// not read back as one name, so none of them is a delimiter here).
    fn word_end(&self, start: usize) -> usize {
        let mut end = start;
        while let Some(&b) = self.src.get(end) {
            if b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80 {
                end += 1;
            } else {
                break;
            }
        }
        end
    }

    fn digits(&mut self) -> usize {
        let start = self.at;
        while self.src.get(self.at).is_some_and(u8::is_ascii_digit) {
            self.at += 1;
        }
        self.at - start
    }

    /// A number; `self.at` is at its first digit (after a `-`).
    fn number(&mut self, negative: bool) -> Result<Token, ReadError> {
        let start = if negative { self.at - 1 } else { self.at };
        self.digits();
        let mut float = false;
        if self.src.get(self.at) == Some(&b'.')
            && self.src.get(self.at + 1).is_some_and(u8::is_ascii_digit)
        {
            float = true;
            self.at += 1;
            self.digits();
        }
        if matches!(self.src.get(self.at), Some(b'e' | b'E')) {
            let save = self.at;
            self.at += 1;
            if matches!(self.src.get(self.at), Some(b'+' | b'-')) {
                self.at += 1;
            }
            if self.digits() == 0 {
                self.at = save;
            } else {
                float = true;
            }
        }
        let text = &self.text[start..self.at];
        if float {
            return match text.parse::<f64>() {
                Ok(f) => Ok(Token::Term(PlTerm::Float(f))),
                Err(_) => self.fail("a malformed float"),
            };
        }
        if self.src.get(self.at) == Some(&b'r')
            && self.src.get(self.at + 1).is_some_and(u8::is_ascii_digit)
        {
            self.at += 1;
            let d = self.at;
            self.digits();
            let rational = format!("{text}/{}", &self.text[d..self.at]);
            return Ok(Token::Term(PlTerm::Rational(rational)));
        }
        Ok(Token::Term(PlTerm::Int(text.to_string())))
    }

    /// A quoted item; `self.at` is at the opening quote.
    fn quoted(&mut self, quote: u8) -> Result<String, ReadError> {
        self.at += 1;
        let mut out = String::new();
        loop {
            let run_start = self.at;
            while self
                .src
                .get(self.at)
                .is_some_and(|&b| b != quote && b != b'\\')
            {
                self.at += 1;
            }
            out.push_str(&self.text[run_start..self.at]);
            match self.src.get(self.at) {
                None => return self.fail("an unterminated quoted item"),
                Some(&b) if b == quote => {
                    self.at += 1;
                    if self.src.get(self.at) == Some(&quote) {
                        out.push(quote as char);
                        self.at += 1;
                    } else {
                        return Ok(out);
                    }
                }
                Some(_) => {
                    self.at += 1;
                    self.escape(&mut out)?;
                }
            }
        }
    }

    /// One escape sequence; `self.at` is after the backslash.
    fn escape(&mut self, out: &mut String) -> Result<(), ReadError> {
        let Some(&c) = self.src.get(self.at) else {
            return self.fail("an unterminated escape");
        };
        self.at += 1;
        let simple = match c {
            b'n' => Some('\n'),
            b't' => Some('\t'),
            b'r' => Some('\r'),
            b'a' => Some('\x07'),
            b'b' => Some('\x08'),
            b'f' => Some('\x0c'),
            b'v' => Some('\x0b'),
            b'e' => Some('\x1b'),
            b's' => Some(' '),
            b'z' => None,
            b'\\' | b'\'' | b'"' | b'`' => Some(c as char),
            b'\n' => None,
            b'x' | b'0'..=b'7' => {
                let (radix, start) = if c == b'x' {
                    (16, self.at)
                } else {
                    (8, self.at - 1)
                };
                while self.src.get(self.at).is_some_and(u8::is_ascii_hexdigit) {
                    self.at += 1;
                }
                let code = u32::from_str_radix(&self.text[start..self.at], radix);
                if self.src.get(self.at) != Some(&b'\\') {
                    return self.fail("an unterminated numeric escape");
                }
                self.at += 1;
                match code.ok().and_then(char::from_u32) {
                    Some(ch) => Some(ch),
                    None => return self.fail("a bad character code"),
                }
            }
            _ => return self.fail("an unknown escape"),
        };
        if let Some(ch) = simple {
            out.push(ch);
        }
        Ok(())
    }
}

/// The list of `items` followed by `tail`: a proper list when the tail is `[]` or a
/// list (a list of one-character atoms is a string, as scryer reports it), else the
/// `'.'/2` chain ending in `tail`, built from the end without recursion.
fn list(mut items: Vec<PlTerm>, tail: PlTerm) -> PlTerm {
    match tail {
        PlTerm::List(rest) => {
            items.extend(rest);
            if !items.is_empty() && items.iter().all(is_char) {
                let mut text = String::with_capacity(items.len());
                for item in &items {
                    if let PlTerm::Atom(c) = item {
                        text.push_str(c);
                    }
                }
                return PlTerm::Str(text);
            }
            PlTerm::List(items)
        }
        PlTerm::Str(rest) if items.iter().all(is_char) => {
            let mut text = String::new();
            for item in &items {
                if let PlTerm::Atom(c) = item {
                    text.push_str(c);
                }
            }
            text.push_str(&rest);
            PlTerm::Str(text)
        }
        tail => items
            .into_iter()
            .rev()
            .fold(tail, |t, head| PlTerm::Compound(".".into(), vec![head, t])),
    }
}

fn is_char(t: &PlTerm) -> bool {
    matches!(t, PlTerm::Atom(a) if a.chars().count() == 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> PlTerm {
        match read_term(text, 100) {
            Ok(t) => t,
            Err(e) => panic!("{text}: {e}"),
        }
    }
    fn atom(a: &str) -> PlTerm {
        PlTerm::Atom(a.into())
    }
    fn int(i: &str) -> PlTerm {
        PlTerm::Int(i.into())
    }

    #[test]
    fn reads_what_the_engine_writes() {
        // Each line was written by scryer-prolog 0.10 with quoted(true), ignore_ops(true).
        assert_eq!(read("f(-1)"), PlTerm::Compound("f".into(), vec![int("-1")]));
        assert_eq!(read("-(1)"), PlTerm::Compound("-".into(), vec![int("1")]));
        assert_eq!(read("-(a)"), PlTerm::Compound("-".into(), vec![atom("a")]));
        assert_eq!(read("10000000000.0"), PlTerm::Float(1e10));
        assert_eq!(read("5.0e-324"), PlTerm::Float(5e-324));
        assert_eq!(read("1.0e300"), PlTerm::Float(1e300));
        assert_eq!(read("0.1"), PlTerm::Float(0.1));
        assert_eq!(read("'.'(a,'.'(b,'.'(c,[])))"), PlTerm::Str("abc".into()));
        assert_eq!(read("'hello world'"), atom("hello world"));
        assert_eq!(read("[]"), PlTerm::List(vec![]));
        assert_eq!(read("{}"), atom("{}"));
        assert_eq!(
            read("{}(x)"),
            PlTerm::Compound("{}".into(), vec![atom("x")])
        );
        assert_eq!(read("'a\\nb'"), atom("a\nb"));
        assert_eq!(
            read("'.'(a,'.'('\\x0\\','.'(b,[])))"),
            PlTerm::Str("a\0b".into())
        );
        assert_eq!(read("-"), atom("-"));
        assert_eq!(read("\\"), atom("\\"));
        assert_eq!(
            read(":-(a,b)"),
            PlTerm::Compound(":-".into(), vec![atom("a"), atom("b")])
        );
        assert_eq!(
            read("'.'(a,_41)"),
            PlTerm::Compound(".".into(), vec![atom("a"), PlTerm::Var("_41".into())])
        );
        assert_eq!(read("'Ω'"), atom("Ω"));
        assert_eq!(read("'.'('Ω','.'(x,[]))"), PlTerm::Str("Ωx".into()));
        assert_eq!(
            read("'.'(1,'.'(2,x))"),
            PlTerm::Compound(
                ".".into(),
                vec![
                    int("1"),
                    PlTerm::Compound(".".into(), vec![int("2"), atom("x")])
                ]
            )
        );
        assert_eq!(
            read("','(a,b)"),
            PlTerm::Compound(",".into(), vec![atom("a"), atom("b")])
        );
        assert_eq!(read("'don\\'t'"), atom("don't"));
        // The empty atom; the atom of two apostrophes as the engine writes it.
        assert_eq!(read("''"), atom(""));
        assert_eq!(read("'\\'\\''"), atom("''"));
        assert_eq!(
            read("f('\\'\\'','','\\'\\'')"),
            PlTerm::Compound("f".into(), vec![atom("''"), atom(""), atom("''")])
        );
        assert_eq!(read("'.'([],[])"), PlTerm::List(vec![PlTerm::List(vec![])]));
        assert_eq!(
            read("1180591620717411303424"),
            int("1180591620717411303424")
        );
        assert_eq!(read("1r3"), PlTerm::Rational("1/3".into()));
        assert_eq!(read("e10"), atom("e10"));
        assert_eq!(
            read("'.'(1,'.'(2,[]))"),
            PlTerm::List(vec![int("1"), int("2")])
        );
        assert_eq!(
            read("[1,2|T]"),
            PlTerm::Compound(
                ".".into(),
                vec![
                    int("1"),
                    PlTerm::Compound(".".into(), vec![int("2"), PlTerm::Var("T".into())])
                ]
            )
        );
        assert_eq!(read("[a,b]"), PlTerm::Str("ab".into()));
        assert_eq!(
            read("ok(sol)"),
            PlTerm::Compound("ok".into(), vec![atom("sol")])
        );
    }

    #[test]
    fn long_lists_are_linear_and_flat() {
        let n = 200_000;
        let mut text = String::new();
        for i in 0..n {
            text.push_str(&format!("'.'({i},"));
        }
        text.push_str("[]");
        text.push_str(&")".repeat(n));
        let PlTerm::List(items) = read(&text) else {
            panic!("not a list")
        };
        assert_eq!(items.len(), n);
        assert_eq!(items[n - 1], int(&(n - 1).to_string()));
    }

    #[test]
    fn nesting_is_bounded() {
        let deep = format!("{}a{}", "f(".repeat(101), ")".repeat(101));
        assert_eq!(read_term(&deep, 100), Err(ReadError::TooDeep(100)));
        let ok = format!("{}a{}", "f(".repeat(99), ")".repeat(99));
        assert!(read_term(&ok, 100).is_ok());
    }

    #[test]
    fn garbage_is_an_error_not_a_guess() {
        for bad in ["", "f(a", "'abc", "f(a,)", "a b", "'.'(a b)", "'\\q'"] {
            assert!(read_term(bad, 100).is_err(), "{bad}");
        }
    }
}
