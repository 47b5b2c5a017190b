//! Where a dynamic predicate's clauses go in the knowledge base's text.

/// A predicate indicator: name and arity.
pub(crate) type Pi = (String, usize);

/// `src` with the clauses of `pi` replaced by `clauses` (rendered clauses, one or
/// more lines each, ending in a newline; empty when none is left).
///
/// The clauses of `pi` come in runs (clauses with only layout between them); the
/// first run is replaced by `clauses`, the others are removed with the line they
/// stood on. With no clause in the file, `clauses` goes after the directive that
/// declares exactly `pi` dynamic, or at the end under a new declaration. The
/// clauses are written with the standard operators only (see `'$charon_listing'/4`),
/// so they read back the same wherever they land.
pub(crate) fn replace_clauses(src: &str, pi: &Pi, clauses: &str) -> String {
    let spans = charon_pldoc::clauses(src);
    let mut runs: Vec<std::ops::Range<usize>> = Vec::new();
    let mut previous_was_pi = false;
    for span in &spans {
        let is_pi = span.predicate.as_ref() == Some(pi) && !span.directive;
        if is_pi {
            match runs.last_mut() {
                Some(run)
                    if previous_was_pi && src[run.end..span.bytes.start].trim().is_empty() =>
                {
                    run.end = span.bytes.end;
                }
                _ => runs.push(span.bytes.clone()),
            }
        }
        previous_was_pi = is_pi;
    }
    let block = clauses.trim_end_matches('\n');
    if runs.is_empty() {
        if block.is_empty() {
            return src.to_string();
        }
        let declaration = spans.iter().find(|s| {
            s.directive && charon_pldoc::dynamic_declared(&src[s.bytes.clone()]).contains(pi)
        });
        let mut out = String::with_capacity(src.len() + block.len() + 2);
        match declaration {
            Some(d) => {
                out.push_str(&src[..d.bytes.end]);
                out.push('\n');
                out.push_str(block);
                out.push_str(&src[d.bytes.end..]);
            }
            None => {
                // A predicate the file never declared: declare it, or it would load
                // back static and refuse the next change.
                out.push_str(src);
                if !src.ends_with('\n') && !src.is_empty() {
                    out.push('\n');
                }
                out.push_str(&format!(":- dynamic({}/{}).\n", quoted_atom(&pi.0), pi.1));
                out.push_str(block);
                out.push('\n');
            }
        }
        return out;
    }
    let mut out = String::with_capacity(src.len() + block.len());
    let mut at = 0;
    for (i, run) in runs.iter().enumerate() {
        let mut end = run.end;
        let replacement = if i == 0 { block } else { "" };
        // A run removed whole takes its line with it, so no blank line is left.
        if replacement.is_empty()
            && (run.start == 0 || src[..run.start].ends_with('\n'))
            && src[end..].starts_with('\n')
        {
            end += 1;
        }
        out.push_str(&src[at..run.start]);
        out.push_str(replacement);
        at = end;
    }
    out.push_str(&src[at..]);
    out
}

/// What `src` says of `pi`: the text of each of its clauses and of each directive
/// that declares it dynamic, in order. Two files that say the same of a predicate
/// load it alike, whatever else differs between them.
pub(crate) fn predicate_text<'s>(src: &'s str, pi: &Pi) -> Vec<&'s str> {
    charon_pldoc::clauses(src)
        .into_iter()
        .filter(|s| {
            if s.directive {
                charon_pldoc::dynamic_declared(&src[s.bytes.clone()]).contains(pi)
            } else {
                s.predicate.as_ref() == Some(pi)
            }
        })
        .map(|s| src[s.bytes].trim())
        .collect()
}

/// The text of every directive of `src`, in order.
pub(crate) fn directives(src: &str) -> Vec<&str> {
    charon_pldoc::clauses(src)
        .into_iter()
        .filter(|s| s.directive)
        .map(|s| src[s.bytes].trim())
        .collect()
}

/// `name` as Prolog source: bare when it is a plain lowercase name, else quoted.
fn quoted_atom(name: &str) -> String {
    let mut chars = name.chars();
    let plain = chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    if plain {
        return name.to_string();
    }
    let mut out = String::from("'");
    for c in name.chars() {
        match c {
            '\'' => out.push_str("\\'"),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            // scryer's reader takes no raw layout but the space inside quotes.
            c if c.is_control() || (c.is_whitespace() && c != ' ') => {
                out.push_str(&format!("\\x{:x}\\", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = "% head\n:- dynamic(p/1).\n:- dynamic(q/1).\n\np(1).\np(2). % two\n\nr :- p(_).\n\n/* tail */\np(3).\n";

    #[test]
    fn replaces_the_first_run_and_removes_the_others_with_their_lines() {
        let out = replace_clauses(SRC, &("p".into(), 1), "p(9).\n");
        assert_eq!(
            out,
            "% head\n:- dynamic(p/1).\n:- dynamic(q/1).\n\np(9). % two\n\nr :- p(_).\n\n/* tail */\n"
        );
        let out = replace_clauses(SRC, &("p".into(), 1), "");
        assert_eq!(
            out,
            "% head\n:- dynamic(p/1).\n:- dynamic(q/1).\n\n % two\n\nr :- p(_).\n\n/* tail */\n"
        );
    }

    #[test]
    fn a_predicate_without_clauses_goes_after_its_own_declaration() {
        let out = replace_clauses(SRC, &("q".into(), 1), "q(a).\nq(b).\n");
        assert!(
            out.starts_with("% head\n:- dynamic(p/1).\n:- dynamic(q/1).\nq(a).\nq(b).\n\np(1).")
        );
        let out = replace_clauses("a.\n", &("z".into(), 0), "z.\n");
        assert_eq!(out, "a.\n:- dynamic(z/0).\nz.\n");
        let out = replace_clauses("a.\n", &("it's".into(), 1), "'it\\'s'(1).\n");
        assert_eq!(out, "a.\n:- dynamic('it\\'s'/1).\n'it\\'s'(1).\n");
        assert_eq!(quoted_atom("a\u{2028}b\tc"), "'a\\x2028\\b\\x9\\c'");
    }

    #[test]
    fn a_name_inside_another_name_is_not_its_declaration() {
        let src = ":- dynamic(xa/1).\n:- dynamic(a/1).\n";
        let out = replace_clauses(src, &("a".into(), 1), "a(1).\n");
        assert_eq!(out, ":- dynamic(xa/1).\n:- dynamic(a/1).\na(1).\n");
        let src = ":- dynamic user_role/2.\n:- dynamic role/2.\n";
        let out = replace_clauses(src, &("role".into(), 2), "role(a, b).\n");
        assert_eq!(
            out,
            ":- dynamic user_role/2.\n:- dynamic role/2.\nrole(a, b).\n"
        );
    }

    #[test]
    fn what_a_file_says_of_a_predicate() {
        let p = ("p".into(), 1);
        assert_eq!(
            predicate_text(SRC, &p),
            [":- dynamic(p/1).", "p(1).", "p(2).", "p(3)."]
        );
        let edited = SRC.replace("r :- p(_).", "r :- p(_), q(_).");
        assert_eq!(predicate_text(SRC, &p), predicate_text(&edited, &p));
        let edited = SRC.replace("p(2).", "p(22).");
        assert_ne!(predicate_text(SRC, &p), predicate_text(&edited, &p));
        assert_eq!(directives(SRC), [":- dynamic(p/1).", ":- dynamic(q/1)."]);
        let edited = format!("{SRC}:- initialization(assertz(p(0))).\n");
        assert_ne!(directives(SRC), directives(&edited));
    }

    #[test]
    fn escaped_text_does_not_move_the_clauses() {
        let src = ":- dynamic(t/1).\nt('\\x1\\').\nt('a\\x2028\\b').\n% end\n";
        let out = replace_clauses(src, &("t".into(), 1), "t(x).\n");
        assert_eq!(out, ":- dynamic(t/1).\nt(x).\n% end\n");
    }
}
