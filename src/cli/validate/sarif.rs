//! `--format sarif`: the run as a SARIF 2.1.0 log, for code-scanning dashboards.
//!
//! The driver lists every rule of the [registry](mod@clipscope_core::validate::rules) with its summary, its
//! explanation, its fix hint and its default level; each finding is a result with its rule id,
//! level, message, the file's URI relative to the config root (forward slashes) and a logical
//! location `clip/track` (or just `clip`).

use serde::Serialize;

use clipscope_core::model::Severity;
use clipscope_core::validate::Run;
use clipscope_core::validate::rules::{rule_index, rules};

/// The SARIF schema URI.
const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

#[derive(Serialize)]
struct Log {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: Vec<SarifRun>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifRun {
    tool: Tool,
    original_uri_base_ids: serde_json::Value,
    results: Vec<SarifResult>,
}

#[derive(Serialize)]
struct Tool {
    driver: Driver,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Driver {
    name: &'static str,
    version: &'static str,
    information_uri: &'static str,
    rules: Vec<RuleDescriptor>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RuleDescriptor {
    id: &'static str,
    short_description: Text,
    full_description: Text,
    help: Text,
    default_configuration: Configuration,
    properties: RuleProperties,
}

#[derive(Serialize)]
struct RuleProperties {
    /// The formats the rule checks (short names).
    formats: Vec<&'static str>,
}

#[derive(Serialize)]
struct Configuration {
    level: &'static str,
}

#[derive(Serialize)]
struct Text {
    text: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifResult {
    rule_id: String,
    rule_index: Option<usize>,
    level: &'static str,
    message: Text,
    locations: Vec<Location>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Location {
    physical_location: PhysicalLocation,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    logical_locations: Vec<LogicalLocation>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PhysicalLocation {
    artifact_location: ArtifactLocation,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ArtifactLocation {
    uri: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    uri_base_id: Option<&'static str>,
}

impl ArtifactLocation {
    /// A file relative to the config root (`ROOT`), or an absolute `file://` URI for a file
    /// outside it.
    fn of(relative: &str) -> ArtifactLocation {
        if relative.starts_with('/') {
            ArtifactLocation {
                uri: format!("file://{relative}"),
                uri_base_id: None,
            }
        } else {
            ArtifactLocation {
                uri: relative.to_string(),
                uri_base_id: Some("ROOT"),
            }
        }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct LogicalLocation {
    fully_qualified_name: String,
    kind: &'static str,
}

/// SARIF's name for a severity.
fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

/// The SARIF log of `run`, as pretty JSON.
pub fn to_sarif(run: &Run) -> String {
    let rules = rules()
        .iter()
        .map(|r| RuleDescriptor {
            id: r.code,
            short_description: Text {
                text: r.summary.to_string(),
            },
            full_description: Text {
                text: r.explanation.to_string(),
            },
            help: Text {
                text: r.fix.to_string(),
            },
            default_configuration: Configuration {
                level: level(r.severity),
            },
            properties: RuleProperties {
                formats: r.to_json().formats,
            },
        })
        .collect();
    let mut results = Vec::new();
    for report in &run.reports {
        for f in &report.problems {
            let p = &f.problem;
            let name = match (&f.clip_name, &f.track_name) {
                (Some(c), Some(t)) => Some(format!("{c}/{t}")),
                (Some(c), None) => Some(c.clone()),
                _ => None,
            };
            let mut text = p.message.clone();
            if let Some(k) = p.key {
                text.push_str(&format!(" [key {k}]"));
            }
            results.push(SarifResult {
                rule_id: p.code.clone(),
                rule_index: rule_index(&p.code),
                level: level(p.severity),
                message: Text { text },
                locations: vec![Location {
                    physical_location: PhysicalLocation {
                        artifact_location: ArtifactLocation::of(&report.relative),
                    },
                    logical_locations: name
                        .map(|n| LogicalLocation {
                            fully_qualified_name: n,
                            kind: "member",
                        })
                        .into_iter()
                        .collect(),
                }],
            });
        }
    }
    let root = url_of_folder(&run.config.root);
    let log = Log {
        schema: SCHEMA,
        version: "2.1.0",
        runs: vec![SarifRun {
            tool: Tool {
                driver: Driver {
                    name: "clipscope",
                    version: env!("CARGO_PKG_VERSION"),
                    information_uri: "https://github.com/clipscope/clipscope",
                    rules,
                },
            },
            original_uri_base_ids: serde_json::json!({ "ROOT": { "uri": root } }),
            results,
        }],
    };
    serde_json::to_string_pretty(&log).unwrap_or_default()
}

/// `file:///…/` for a folder, with forward slashes and a trailing slash.
fn url_of_folder(path: &std::path::Path) -> String {
    let mut text = path.to_string_lossy().replace('\\', "/");
    if !text.starts_with('/') {
        text.insert(0, '/');
    }
    if !text.ends_with('/') {
        text.push('/');
    }
    format!("file://{text}")
}
