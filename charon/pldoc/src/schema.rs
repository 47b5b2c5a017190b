//! JSON Schemas (2020-12) of the operation model: the one place a declared type
//! becomes a schema. OpenAPI request bodies and parameters, 200 responses, and MCP
//! input/output schemas are all built from these functions.

use serde_json::{Map, Value, json};

use crate::model::{Determinism, Operation, Type};

/// Array nesting spelled out for `any` (JSON Schema needs `$ref` for true recursion,
/// and these schemas must stand alone inside MCP tool descriptions).
const ANY_DEPTH: usize = 4;

/// The schema of a value of declared type `ty`.
pub fn type_schema(ty: &Type) -> Value {
    match ty {
        Type::Atom | Type::String => json!({"type": "string"}),
        Type::Int => json!({"type": "integer"}),
        Type::Float | Type::Number => json!({"type": "number"}),
        Type::Bool => json!({"type": "boolean"}),
        Type::List(inner) => json!({"type": "array", "items": type_schema(inner)}),
        Type::Any => any_schema(ANY_DEPTH),
    }
}

fn any_schema(depth: usize) -> Value {
    if depth == 0 {
        return json!({"type": ["string", "number", "boolean"]});
    }
    json!({
        "type": ["string", "number", "boolean", "array"],
        "items": any_schema(depth - 1),
    })
}

/// The request object: input arguments by name, all required, nothing else.
pub fn request_schema(op: &Operation) -> Value {
    let mut properties = Map::new();
    let mut required = Vec::new();
    for arg in op.inputs() {
        properties.insert(
            arg.name.to_string(),
            with_description(type_schema(&arg.ty), arg.doc.as_deref()),
        );
        required.push(Value::String(arg.name.to_string()));
    }
    json!({
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": false,
    })
}

/// One solution: `true` without outputs, the value with one, an object with several.
pub fn solution_schema(op: &Operation) -> Value {
    let outputs: Vec<_> = op.outputs().collect();
    match outputs.as_slice() {
        [] => json!({"const": true}),
        [one] => with_description(type_schema(&one.ty), one.doc.as_deref()),
        several => {
            let mut properties = Map::new();
            for arg in several {
                properties.insert(
                    arg.name.to_string(),
                    with_description(type_schema(&arg.ty), arg.doc.as_deref()),
                );
            }
            let required: Vec<Value> = several
                .iter()
                .map(|a| Value::String(a.name.to_string()))
                .collect();
            json!({
                "type": "object",
                "properties": properties,
                "required": required,
                "additionalProperties": false,
            })
        }
    }
}

/// The exact schema of a successful answer, by declared determinism.
pub fn response_schema(op: &Operation) -> Value {
    let solution = solution_schema(op);
    let no_outputs = op.outputs().next().is_none();
    match op.determinism {
        Determinism::Det => solution,
        Determinism::Semidet if no_outputs => json!({"type": "boolean"}),
        Determinism::Semidet => json!({"anyOf": [solution, {"type": "null"}]}),
        // `multi` and `failure` still answer `[]` / the solutions found, so
        // their schema is the same array.
        Determinism::Nondet
        | Determinism::Multi
        | Determinism::Failure
        | Determinism::Undeclared => {
            json!({"type": "array", "items": solution})
        }
    }
}

fn with_description(mut schema: Value, doc: Option<&str>) -> Value {
    if let (Some(doc), Some(obj)) = (doc, schema.as_object_mut()) {
        obj.insert("description".into(), Value::String(doc.to_string()));
    }
    schema
}
