# Test helper, not part of the module: checks a deployment parameters file
# against an ARM template's parameter declarations, as Azure Resource Manager
# would before deploying. tests/testdata/ccws_mainTemplate.json transcribes
# CycleCloud Workspace for Slurm's (see its metadata for the source).
#
# Problems found, one sentence each, in `problems`:
#   * a parameter the template requires (no defaultValue) is missing;
#   * a parameter the template does not declare is given;
#   * a parameter is not wrapped in { "value": ... };
#   * a value is not of its declared type (string, securestring, int, bool,
#     object, array);
#   * for parameters of a user-defined type ($ref to definitions): a
#     non-nullable field is missing or null, a field is not in the type, a
#     field's value is not of its type or not among its allowedValues, or an
#     array item is not of the item type or not among its allowedValues.

variable "template" {
  description = "The ARM template, decoded (jsondecode)."
  type        = any
}

variable "parameters_json" {
  description = "The deployment parameters file, as JSON."
  type        = string
}

locals {
  given  = try(jsondecode(var.parameters_json).parameters, {})
  params = var.template.parameters
  defs   = try(var.template.definitions, {})

  # A value's JSON encoding tells its kind apart: ARM type -> pattern.
  kind = {
    string       = "^\""
    securestring = "^\""
    int          = "^-?[0-9]+$"
    bool         = "^(true|false)$"
    object       = "^\\{"
    array        = "^\\["
  }

  required = sort([for k, p in local.params : k if !can(p.defaultValue)])
  missing  = [for k in local.required : "Parameter ${k} is required by the template but missing." if !contains(keys(local.given), k)]
  unknown  = [for k in sort(keys(local.given)) : "Parameter ${k} is not declared by the template." if !contains(keys(local.params), k)]
  unwrapped = [
    for k in sort(keys(local.given)) : "Parameter ${k} is not wrapped in { \"value\": ... }."
    if !can(local.given[k].value) || length(try(keys(local.given[k]), [])) != 1
  ]

  # Declared type of each given parameter, following $ref.
  param_types = {
    for k, p in local.params : k => {
      def  = try(replace(p["$ref"], "#/definitions/", ""), "")
      type = try(local.defs[replace(p["$ref"], "#/definitions/", "")].type, p.type)
    } if contains(keys(local.given), k) && can(local.given[k].value)
  }
  type_problems = [
    for k, t in local.param_types : "Parameter ${k} is ${jsonencode(local.given[k].value)}, not of type ${t.type}."
    if !can(regex(local.kind[t.type], jsonencode(local.given[k].value)))
  ]

  # Fields of user-defined object types.
  typed = { for k, t in local.param_types : k => t.def if t.def != "" && t.type == "object" && can(keys(local.given[k].value)) }
  fields = flatten([
    for k, d in local.typed : [
      for name, schema in local.defs[d].properties : {
        param        = k
        def          = d
        name         = name
        nullable     = try(schema.nullable, false)
        present      = contains(keys(local.given[k].value), name) && try(local.given[k].value[name] != null, false)
        json         = try(jsonencode(local.given[k].value[name]), "null")
        type         = try(local.defs[replace(schema["$ref"], "#/definitions/", "")].type, schema.type)
        allowed      = [for a in try(local.defs[replace(schema["$ref"], "#/definitions/", "")].allowedValues, schema.allowedValues, []) : jsonencode(a)]
        items        = try([for i in jsondecode(regex("^\\[.*", jsonencode(local.given[k].value[name]))) : jsonencode(i)], [])
        item_type    = try(local.defs[replace(schema.items["$ref"], "#/definitions/", "")].type, schema.items.type, "")
        item_allowed = [for a in try(local.defs[replace(schema.items["$ref"], "#/definitions/", "")].allowedValues, schema.items.allowedValues, []) : jsonencode(a)]
      }
    ]
  ])
  field_problems = flatten([
    for f in local.fields : concat(
      !f.present && !f.nullable ? ["${f.param}.${f.name} is required by ${f.def} but missing."] : [],
      f.present && !can(regex(local.kind[f.type], f.json)) ? ["${f.param}.${f.name} is ${f.json}, not of type ${f.type} (${f.def})."] : [],
      f.present && length(f.allowed) > 0 && !contains(f.allowed, f.json) ? ["${f.param}.${f.name} is ${f.json}, not one of ${join(", ", f.allowed)} (${f.def})."] : [],
      [
        for item in f.items : "${f.param}.${f.name} holds ${item}, not ${f.item_type}${length(f.item_allowed) > 0 ? " among ${join(", ", f.item_allowed)}" : ""} (${f.def})."
        if f.item_type != "" && (!can(regex(local.kind[f.item_type], item)) || (length(f.item_allowed) > 0 && !contains(f.item_allowed, item)))
      ],
    )
  ])
  extra_fields = flatten([
    for k, d in local.typed : [
      for name in sort(keys(local.given[k].value)) : "${k}.${name} is not a field of ${d}."
      if !contains(keys(local.defs[d].properties), name)
    ]
  ])
}

output "required" {
  description = "The parameters the template requires (no defaultValue)."
  value       = local.required
}

output "problems" {
  description = "What Azure Resource Manager would reject in the parameters file, one sentence each; empty when none."
  value       = nonsensitive(concat(local.missing, local.unknown, local.unwrapped, local.type_problems, local.field_problems, local.extra_fields))
}
