//! Editing without a window: the [`Edit`]s that panels emit, how they apply to the open
//! documents, and the undo history.
//!
//! The GUI never edits a [`Document`](clipscope_core::formats::Document) directly. A panel queues
//! [`Edit`]s; [`Workspace::apply`] carries one out, records what it changed (snapshots of the
//! touched tracks or clips) as an [`UndoStep`](history::UndoStep) in the [`History`], and marks
//! the document dirty. Undo puts the snapshots back. Because all of this is plain data, every
//! edit is testable without a window, and shortcuts, menus and the command palette all reach the
//! same edits.
//!
//! [`recovery`] keeps copies of unsaved edits on disk (autosave) and offers those of an editor
//! that died back at the next start.

pub mod edit;
pub mod envelope;
pub mod history;
pub mod recovery;
pub mod transport;
pub mod workspace;

pub use edit::{ClipId, ClipScope, Edit, KeyRef};
pub use history::History;
pub use transport::{LoopMode, Transport};
pub use workspace::{Applied, OpenDocument, Workspace};
