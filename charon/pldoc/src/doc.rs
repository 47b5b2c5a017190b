//! PlDoc blocks (`%!` runs and `/** */` comments) and their mode lines.

use crate::model::{Determinism, Mode};
use crate::scan::{count_args, read_atom};

/// A PlDoc block as written, markers stripped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct DocBlock {
    /// Line of the mode line.
    pub line: usize,
    /// The mode line, joined if it spans lines, without the final `.`.
    pub mode_line: String,
    /// The free-text description.
    pub description: String,
    /// `@arg Name text` entries, in order.
    pub arg_docs: Vec<(String, String)>,
    /// The text after each `@charon` tag (`skip`, `name other_name`), in order.
    pub charon: Vec<String>,
}

/// The parts of a mode line, before types are checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ModeLine {
    pub name: String,
    pub args: Vec<RawArg>,
    pub determinism: Result<Determinism, String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RawArg {
    pub name: String,
    pub mode: Mode,
    /// The type text after `:`, if any.
    pub ty: Option<String>,
}

/// Builds a block from its content lines; the first line is the mode line.
pub(crate) fn block_from_lines(first_line: usize, lines: &[String]) -> DocBlock {
    let mut i = 0;
    let mut mode_line = String::new();
    while i < lines.len() {
        let l = lines[i].trim();
        i += 1;
        if mode_line.is_empty() && l.is_empty() {
            continue;
        }
        if !mode_line.is_empty() {
            mode_line.push(' ');
        }
        mode_line.push_str(l);
        if l.ends_with('.') {
            break;
        }
    }
    let mode_line = mode_line.trim_end_matches('.').trim().to_string();

    let mut description: Vec<String> = Vec::new();
    let mut arg_docs: Vec<(String, String)> = Vec::new();
    let mut charon: Vec<String> = Vec::new();
    let mut in_tag = false;
    let mut seen_tag = false;
    for raw in &lines[i..] {
        let l = raw.trim();
        // Further `%!` lines declare other modes of the same predicate; only the first
        // one is exposed.
        if l.starts_with('!') {
            continue;
        }
        if let Some(rest) = l.strip_prefix('@') {
            let mut words = rest.splitn(2, char::is_whitespace);
            let tag = words.next().unwrap_or_default();
            let body = words.next().unwrap_or_default().trim();
            if tag == "arg" {
                let mut parts = body.splitn(2, char::is_whitespace);
                let name = parts.next().unwrap_or_default().to_string();
                let text = parts.next().unwrap_or_default().trim().to_string();
                arg_docs.push((name, text));
                in_tag = true;
            } else if tag == "charon" {
                charon.push(body.to_string());
                in_tag = false;
            } else {
                // Other tags (@throws, @see, …) end the description but are not shown.
                in_tag = false;
            }
            seen_tag = true;
            continue;
        }
        if l.is_empty() {
            in_tag = false;
            description.push(String::new());
            continue;
        }
        if in_tag {
            if let Some((_, text)) = arg_docs.last_mut() {
                if !text.is_empty() {
                    text.push(' ');
                }
                text.push_str(l);
            }
        } else if !seen_tag {
            description.push(l.to_string());
        }
    }
    let description = collapse_paragraphs(&description);
    DocBlock {
        line: first_line,
        mode_line,
        description,
        arg_docs,
        charon,
    }
}

/// Joins lines into paragraphs separated by one blank line.
fn collapse_paragraphs(lines: &[String]) -> String {
    let mut out = String::new();
    let mut pending_break = false;
    for l in lines {
        if l.is_empty() {
            pending_break = !out.is_empty();
            continue;
        }
        if pending_break {
            out.push_str("\n\n");
            pending_break = false;
        } else if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(l);
    }
    out
}

/// Content lines of a `/** … */` comment (`text` is what is between `/*` and `*/`,
/// so it starts with the second `*`). `None` if it is not a PlDoc block.
pub(crate) fn block_comment_lines(text: &str) -> Option<Vec<String>> {
    let body = text.strip_prefix('*')?;
    if body.starts_with('*') {
        // `/***…` banners are not PlDoc.
        return None;
    }
    Some(
        body.lines()
            .map(|l| {
                let t = l.trim_start();
                let t = t.strip_prefix('*').unwrap_or(t);
                t.strip_prefix(' ').unwrap_or(t).to_string()
            })
            .collect(),
    )
}

/// Whether a line looks like the start of a mode line (`name(` or `name is` or `name.`).
pub(crate) fn looks_like_mode_line(line: &str) -> bool {
    let chars: Vec<char> = line.trim().chars().collect();
    match read_atom(&chars) {
        Some((_, end)) => {
            let rest: String = chars[end..].iter().collect();
            rest.starts_with('(')
                || rest.trim_start().starts_with("is ")
                || rest.trim() == "."
                || rest.trim().is_empty()
        }
        None => false,
    }
}

/// Parses `name(+A:int, -B) is det`.
pub(crate) fn parse_mode_line(text: &str) -> Result<ModeLine, String> {
    let chars: Vec<char> = text.trim().chars().collect();
    let (name, mut i) =
        read_atom(&chars).ok_or_else(|| "it does not start with a predicate name".to_string())?;
    let mut args = Vec::new();
    if chars.get(i) == Some(&'(') {
        let (_, end) = count_args(&chars, i);
        if chars.get(end - 1) != Some(&')') {
            return Err("unbalanced parentheses".into());
        }
        let inner: String = chars[i + 1..end - 1].iter().collect();
        if inner.trim().is_empty() {
            return Err(format!(
                "`{name}()` has empty parentheses; write a zero-arity predicate as `{name}`"
            ));
        }
        for part in split_top_level(&inner) {
            args.push(parse_arg(part.trim())?);
        }
        i = end;
    }
    let rest: String = chars[i..].iter().collect();
    let rest = rest.trim();
    let determinism = if rest.is_empty() {
        Ok(Determinism::Undeclared)
    } else if let Some(word) = rest.strip_prefix("is") {
        let word = word.trim();
        if rest.len() == word.len() + 2 && !rest[2..].starts_with(char::is_whitespace) {
            return Err(format!("unexpected `{rest}` after the arguments"));
        }
        Determinism::parse(word).ok_or_else(|| word.to_string())
    } else if rest.starts_with("//") {
        return Err("DCG mode lines (`name//N`) cannot be exposed".into());
    } else {
        return Err(format!("unexpected `{rest}` after the arguments"));
    };
    Ok(ModeLine {
        name,
        args,
        determinism,
    })
}

fn split_top_level(s: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (i, c) in s.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&s[start..]);
    parts
}

fn parse_arg(text: &str) -> Result<RawArg, String> {
    let prefix_len = ["++", "--", "+", "-", "?", "@", ":"]
        .iter()
        .find(|p| text.starts_with(*p))
        .map_or(0, |p| p.len());
    let mode = Mode::from_prefix(&text[..prefix_len]);
    let rest = text[prefix_len..].trim_start();
    let (name, ty) = match rest.split_once(':') {
        Some((n, t)) => (n.trim(), Some(t.trim().to_string())),
        None => (rest.trim(), None),
    };
    let valid = name
        .chars()
        .next()
        .is_some_and(|c| c.is_uppercase() || c == '_')
        && name.chars().all(|c| c.is_alphanumeric() || c == '_');
    if !valid {
        return Err(format!(
            "`{text}` is not an argument (expected a mode, a variable name and a type, like `+Age:int`)"
        ));
    }
    if ty.as_deref() == Some("") {
        return Err(format!("argument `{name}` has `:` but no type"));
    }
    Ok(RawArg {
        name: name.to_string(),
        mode,
        ty,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mode_line_forms() {
        let m = parse_mode_line("check(+Age:int, +Drugs:list(list(atom)), -R:string) is nondet")
            .expect("parses");
        assert_eq!(m.name, "check");
        assert_eq!(m.args.len(), 3);
        assert_eq!(m.args[1].ty.as_deref(), Some("list(list(atom))"));
        assert_eq!(m.determinism, Ok(Determinism::Nondet));

        let z = parse_mode_line("ready is semidet").expect("parses");
        assert!(z.args.is_empty());
        assert_eq!(z.determinism, Ok(Determinism::Semidet));

        let u = parse_mode_line("p(-X:atom)").expect("parses");
        assert_eq!(u.determinism, Ok(Determinism::Undeclared));
        assert_eq!(
            parse_mode_line("p(+X) is sometimes")
                .expect("parses")
                .determinism,
            Err("sometimes".to_string())
        );
        assert!(parse_mode_line("p()").is_err());
        assert!(parse_mode_line("p(+x:int)").is_err());
        assert!(parse_mode_line("p(+X:int) det").is_err());
    }

    #[test]
    fn blocks_split_description_and_args() {
        let lines: Vec<String> = [
            " p(+A:int,",
            "    -B:atom) is det.",
            "",
            " Does a thing.",
            " Over two lines.",
            "",
            " Second paragraph.",
            "",
            " @arg A The input,",
            "        continued.",
            " @arg B The output.",
            " @see q/1",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let b = block_from_lines(3, &lines);
        assert_eq!(b.mode_line, "p(+A:int, -B:atom) is det");
        assert_eq!(
            b.description,
            "Does a thing.\nOver two lines.\n\nSecond paragraph."
        );
        assert_eq!(
            b.arg_docs,
            vec![
                ("A".into(), "The input, continued.".into()),
                ("B".into(), "The output.".into())
            ]
        );
    }
}
