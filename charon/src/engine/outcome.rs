//! The one decoder of the wrapper's result terms (`wrapper/calls.pl`). Everything above the engine sees
//! [`Outcome`] and [`done`]; nothing else matches on the wrapper's atoms.

use crate::term::{MAX_ANSWER_DEPTH, PlTerm, ReadError, read_term};

/// How one call through `'$charon_once'/4` or `'$charon_all'/5` ended.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Outcome {
    /// `ok(T)`: the template of the one solution (`'$charon_once'`), or the list of
    /// templates of every solution (`'$charon_all'`).
    Solved(PlTerm),
    /// `false`: no solution.
    Failed,
    /// `limit`: the inference limit was reached.
    InferenceLimit,
    /// `too_many`: more solutions than the solution limit.
    TooManySolutions,
    /// `exception(E)`: the goal raised `E`.
    Exception(PlTerm),
    /// The goal ran out of memory (`resource_error(memory)` under the worker's
    /// memory limit).
    MemoryLimit,
    /// The answer could not be read (nested too deep, say).
    Unreadable(ReadError),
}

impl Outcome {
    /// Decodes the wrapper's result as the worker sent it, as text (see
    /// `'$charon_emit'/2`).
    pub(crate) fn read(result: Option<&str>) -> Outcome {
        // '$charon_answer'(ok(sol(…))) (and a list of solutions) wrap the answer.
        match result.map(|text| read_term(text, MAX_ANSWER_DEPTH + 4)) {
            None => Outcome::decode(None),
            Some(Ok(PlTerm::Compound(f, mut args))) if f == "$charon_answer" && args.len() == 1 => {
                Outcome::decode(args.pop())
            }
            // Not the wrapper's answer: what the goal printed last, say.
            Some(Ok(_)) => Outcome::decode(None),
            Some(Err(ReadError::TooDeep(_))) => {
                Outcome::Unreadable(ReadError::TooDeep(MAX_ANSWER_DEPTH))
            }
            Some(Err(e)) => Outcome::Unreadable(e),
        }
    }

    /// Decodes the binding of the wrapper's result variable. `None` (the query itself
    /// failed, which the wrapper never does) is reported, not taken for "no solution".
    pub(crate) fn decode(result: Option<PlTerm>) -> Outcome {
        let Some(term) = result else {
            return Outcome::Exception(PlTerm::Atom("charon_no_result".into()));
        };
        match term {
            PlTerm::Compound(f, mut args) if f == "ok" && args.len() == 1 => {
                Outcome::Solved(args.remove(0))
            }
            PlTerm::Compound(f, mut args) if f == "exception" && args.len() == 1 => {
                let e = args.remove(0);
                if is_memory_error(&e) {
                    Outcome::MemoryLimit
                } else {
                    Outcome::Exception(e)
                }
            }
            PlTerm::Atom(a) if a == "false" => Outcome::Failed,
            PlTerm::Atom(a) if a == "limit" => Outcome::InferenceLimit,
            PlTerm::Atom(a) if a == "too_many" => Outcome::TooManySolutions,
            // Not a result the wrapper produces: report it rather than guess.
            other => Outcome::Exception(PlTerm::Compound(
                "charon_unexpected_result".into(),
                vec![other],
            )),
        }
    }

    /// Whether the call succeeded (its changes to the database are kept).
    pub(crate) fn is_solved(&self) -> bool {
        matches!(self, Outcome::Solved(_))
    }
}

/// `error(resource_error(memory), _)`.
fn is_memory_error(e: &PlTerm) -> bool {
    matches!(e, PlTerm::Compound(f, args) if f == "error" && args.len() == 2
        && matches!(&args[0], PlTerm::Compound(r, what) if r == "resource_error"
            && what.len() == 1 && matches!(&what[0], PlTerm::Atom(m) if m == "memory")))
}

/// Decodes the result of `'$charon_dump'/2` and `'$charon_restore'/2`: `ok`, or an
/// error message.
pub(crate) fn done(result: Option<PlTerm>) -> Result<(), String> {
    match result {
        Some(PlTerm::Atom(a)) if a == "ok" => Ok(()),
        Some(PlTerm::Compound(f, args)) if f == "exception" && args.len() == 1 => {
            Err(args[0].to_string())
        }
        Some(other) => Err(other.to_string()),
        None => Err("the engine failed".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_wrapper_result_decodes() {
        let atom = |a: &str| Some(PlTerm::Atom(a.into()));
        let ok = PlTerm::Compound("ok".into(), vec![PlTerm::Int("1".into())]);
        assert_eq!(
            Outcome::decode(Some(ok)),
            Outcome::Solved(PlTerm::Int("1".into()))
        );
        assert_eq!(Outcome::decode(atom("false")), Outcome::Failed);
        assert!(matches!(Outcome::decode(None), Outcome::Exception(_)));
        assert_eq!(Outcome::decode(atom("limit")), Outcome::InferenceLimit);
        assert_eq!(Outcome::decode(atom("too_many")), Outcome::TooManySolutions);
        let e = PlTerm::Compound("exception".into(), vec![PlTerm::Atom("boom".into())]);
        assert_eq!(
            Outcome::decode(Some(e)),
            Outcome::Exception(PlTerm::Atom("boom".into()))
        );
        assert!(matches!(
            Outcome::decode(atom("what")),
            Outcome::Exception(_)
        ));
        assert_eq!(done(atom("ok")), Ok(()));
        assert!(done(atom("nope")).is_err());
    }
}
