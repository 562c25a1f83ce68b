//! Editing without a window: the [`Edit`]s that panels emit, how they apply to the open
//! documents, and the undo history.
//!
//! The GUI never edits a [`Document`](clipscope_core::formats::Document) directly. A panel queues
//! [`Edit`]s; [`Workspace::apply`] carries one out, records what it changed (snapshots of the
//! touched tracks or clips) as one undo step in the [`History`], and marks the document dirty.
//! An edit that does not fit (a stale index, a frame rate of 0) changes nothing and says why
//! with an [`EditError`]. Undo puts the snapshots back. Because all of this is plain data,
//! every edit is testable without a window, and shortcuts, menus, the command palette and
//! `clipscope edit` all reach the same edits.
//!
//! ```
//! use std::path::Path;
//!
//! use clipscope_core::assets::{DEMO_CLIPS, DEMO_NAME};
//! use clipscope_core::formats;
//! use clipscope_editor::{ClipId, ClipScope, Edit, Workspace};
//!
//! let doc = formats::read_bytes(DEMO_CLIPS, Path::new(DEMO_NAME)).expect("the demo reads");
//! let mut ws = Workspace::new();
//! let index = ws.add_named(doc, "walk.json");
//! let walk = ClipId { doc: index, clip: 0 };
//! let keys = ws.clip(walk).expect("the demo has a clip").key_count();
//!
//! let applied = ws.apply(Edit::Resample { scope: ClipScope::Clip(walk), fps: 10.0 })?;
//! assert!(applied.message.is_some_and(|m| m.starts_with("resample at 10 fps")));
//! assert!(ws.documents[index].is_dirty());
//!
//! assert_eq!(ws.undo().as_deref(), Some("Resample"));
//! assert_eq!(ws.clip(walk).map(|c| c.key_count()), Some(keys));
//! assert!(!ws.documents[index].is_dirty());
//!
//! // A refused edit changes nothing and says why.
//! let refused = ws.apply(Edit::Resample { scope: ClipScope::All, fps: 0.0 });
//! assert_eq!(
//!     refused.map_err(|e| e.to_string()),
//!     Err("resample: 0 is not a frame rate above 0".to_string())
//! );
//! # Ok::<(), clipscope_editor::EditError>(())
//! ```
//!
//! Besides the workspace, the crate holds the playback state ([`Transport`]), the curve
//! editor's sampled curves ([`envelope`]) and crash recovery ([`recovery`]: copies of unsaved
//! edits on disk, offered back at the next start after an editor died).

mod edit;
pub mod envelope;
mod error;
mod history;
pub mod recovery;
mod transport;
mod workspace;

pub use edit::{ClipId, ClipScope, Edit, KeyRef};
pub use error::EditError;
pub use history::History;
pub use recovery::{Recoverable, RecoveryStore};
pub use transport::{LoopMode, Transport};
pub use workspace::{Applied, OpenDocument, Workspace, smoothed_clip};
