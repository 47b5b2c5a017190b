//! Handing a persisted file over to the knowledge base loaded after this one (a
//! reload in place, `KnowledgeBase::hand_over`).
//!
//! Two knowledge bases must never write one journal at once: each could
//! acknowledge a write the other never sees. So the file changes hands in three
//! steps:
//!
//! 1. [`Engine::hand_over`] closes the *fence*: writes that have not started wait
//!    at it (reads go on). Once the write in flight, if any, has committed, the
//!    journal is folded into the file (so that the next load reads a file holding
//!    every acknowledged write) and let go, with what was left of it
//!    ([`Previous`]).
//! 2. The next knowledge base loads and opens the file and journal; where someone
//!    edited the file meanwhile, the writes still pending apply to the edit only
//!    if it left what they change as it was (`crate::persist`, rule 5).
//! 3. Either [`Engine::complete_hand_over`]: the writes waiting at the fence fail
//!    with [`EngineError::Reloaded`] (they were never made; the caller sends them
//!    again, to the new knowledge base), as does every later write to this one; or
//!    [`Engine::resume`], when the next one did not take over: this knowledge base
//!    takes the file back if nobody touched it or its journal meanwhile, and the
//!    waiting writes go on. If somebody did, writes stay refused, as after any
//!    edit made while Charon runs.

use std::time::Instant;

use super::{Engine, EngineError};
use crate::persist::{PersistError, Persister, Previous};

/// Opens the fence when dropped: while the file is handed over, should that panic.
struct Reopen<'e>(&'e Engine);

impl Drop for Reopen<'_> {
    fn drop(&mut self) {
        self.0.set_fence(Fence::Open);
    }
}

/// Whether writes may start (see the module docs).
#[derive(Debug, Default)]
pub(super) enum Fence {
    /// They may.
    #[default]
    Open,
    /// The file is being handed over: they wait.
    Closed,
    /// The file went to another knowledge base, or was edited while it was away:
    /// they are refused with this error. In the second case, what this knowledge
    /// base left of the file, for the next reload to take over (its pending writes
    /// may still apply to a later edit).
    Gone(EngineError, Option<Previous>),
}

impl Engine {
    /// Waits until writes may start (see the module docs), by `deadline`.
    pub(super) fn pass_fence(&self, deadline: Instant) -> Result<(), EngineError> {
        let mut fence = self.inner.fence.lock().unwrap_or_else(|p| p.into_inner());
        loop {
            match &*fence {
                Fence::Open => return Ok(()),
                Fence::Gone(e, _) => return Err(e.clone()),
                Fence::Closed => {
                    let left = deadline.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        return Err(EngineError::Waited(self.inner.config.limits.time));
                    }
                    fence = self
                        .inner
                        .fence_changed
                        .wait_timeout(fence, left)
                        .unwrap_or_else(|p| p.into_inner())
                        .0;
                }
            }
        }
    }

    /// Whether writes may start now (checked again once the database lock is held).
    pub(super) fn fence_open(&self) -> bool {
        matches!(
            *self.inner.fence.lock().unwrap_or_else(|p| p.into_inner()),
            Fence::Open
        )
    }

    fn set_fence(&self, to: Fence) {
        *self.inner.fence.lock().unwrap_or_else(|p| p.into_inner()) = to;
        self.inner.fence_changed.notify_all();
    }

    /// Step 1: stops writes, folds the journal into the file where it can, and lets
    /// go of the file. `None` without `persist`: nothing is stopped.
    pub(crate) fn hand_over(&self, deadline: Instant) -> Result<Option<Previous>, EngineError> {
        if !self.inner.config.persist {
            return Ok(None);
        }
        // The write in flight, if any, commits first; none starts after.
        let Some(_exclusive) = self.inner.database.try_write_until(deadline) else {
            return Err(EngineError::Waited(self.inner.config.load_timeout));
        };
        if self
            .inner
            .persist
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .is_none()
        {
            // Let go of before (a reload that failed on an edit): writes are
            // refused already, and stay so whatever comes of this one, which takes
            // over what was left of the file then.
            let fence = self.inner.fence.lock().unwrap_or_else(|p| p.into_inner());
            return Ok(match &*fence {
                Fence::Gone(_, previous) => previous.clone(),
                _ => None,
            });
        }
        self.set_fence(Fence::Closed);
        // Should the fold panic, writes must not wait at a fence nobody opens.
        let reopen = Reopen(self);
        if let Err(e) = self.fold_journal(deadline) {
            // Edited by someone else, most likely: the next load merges or refuses.
            tracing::info!(target: "charon::persist", "the journal was not folded into the file before the reload: {e}");
        }
        let taken = self
            .inner
            .persist
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take();
        std::mem::forget(reopen);
        Ok(taken.map(|(persister, _)| persister.leave()))
    }

    /// Step 3, taken over: with `persist`, every write to this knowledge base is
    /// refused from now on, those waiting at the fence too. (Without it, a write
    /// that reaches the old knowledge base still runs there, as the reload drops
    /// the dynamic database anyway.)
    pub(crate) fn complete_hand_over(&self) {
        if self.inner.config.persist {
            self.set_fence(Fence::Gone(EngineError::Reloaded, None));
        }
    }

    /// Step 3, not taken over: takes the file back if it and its journal are as
    /// `previous` left them, and lets writes go on; otherwise writes stay refused.
    pub(crate) fn resume(&self, previous: Option<Previous>) {
        let Some(previous) = previous else {
            // Nothing was stopped (see `hand_over`).
            return;
        };
        let edited = || {
            EngineError::Persist(PersistError::EditedElsewhere(previous.path.clone()).to_string())
        };
        if !previous.untouched() {
            tracing::warn!(target: "charon::persist", file = %previous.path.display(), "the file or its journal changed while the reload ran: writes stay refused until a reload succeeds");
            self.set_fence(Fence::Gone(edited(), Some(previous)));
            return;
        }
        // The journal's writes, if any, are this knowledge base's own (in its
        // database already): nothing is applied. The file must still be as left.
        let opened = Persister::open(
            &previous.path,
            previous.module.clone(),
            None,
            Some(previous.content.as_bytes()),
        );
        match opened {
            Ok((mut persister, _)) => {
                persister.generation = self.generation();
                *self.inner.persist.lock().unwrap_or_else(|p| p.into_inner()) =
                    Some((persister, previous.module));
                self.set_fence(Fence::Open);
            }
            Err(e) => {
                tracing::warn!(target: "charon::persist", file = %previous.path.display(), "cannot follow the file again after a failed reload: {e}; writes stay refused until a reload succeeds");
                self.set_fence(Fence::Gone(
                    EngineError::Persist(e.to_string()),
                    Some(previous),
                ));
            }
        }
    }

    /// Whether this knowledge base follows its file (`persist`) and the file holds
    /// what it last read or wrote.
    pub(crate) fn file_is_own(&self) -> bool {
        self.inner
            .persist
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .as_ref()
            .is_some_and(|(p, _)| p.file_is_own())
    }
}
