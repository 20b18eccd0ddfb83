# Plans the module against the real kubernetes provider's schema
# (mock_provider keeps it from calling a cluster) and checks that the
# recommendation's KAITO settings reach the Workspace. The date is pinned so
# that the ranking does not move.

mock_provider "kubernetes" {}

provider "hpcsku" {
  as_of = "2026-11-22"
}

variables {
  location = "eastus"
}

# Llama 3.1 8B has a KAITO preset (a gated model: the token secret goes in
# presetOptions); the Workspace takes the size and VM count of the
# recommendation.
run "preset_workspace" {
  command = plan

  variables {
    model               = { name = "llama-3.1-8b" }
    model_access_secret = "hf-token"
  }

  assert {
    condition     = length(kubernetes_manifest.preset) == 1 && length(kubernetes_manifest.template) == 0
    error_message = "A model with a preset should get the preset Workspace only."
  }

  assert {
    condition     = kubernetes_manifest.preset[0].manifest.resource.instanceType == data.hpcsku_recommendation.serve.vm_size && kubernetes_manifest.preset[0].manifest.resource.count == data.hpcsku_recommendation.serve.recommendations[0].nodes
    error_message = "instanceType and count should be the recommended size and VMs (one copy on one VM)."
  }

  assert {
    condition     = kubernetes_manifest.preset[0].manifest.inference.preset.name == "llama-3.1-8b-instruct" && kubernetes_manifest.preset[0].manifest.inference.preset.presetOptions.modelAccessSecret == "hf-token"
    error_message = "The Workspace should use KAITO's llama-3.1-8b-instruct preset with the token secret."
  }

  assert {
    condition     = kubernetes_manifest.preset[0].manifest.resource.labelSelector.matchLabels["hpcsku.io/vm-size"] == output.vm_size
    error_message = "The label selector should be the node pool's labels."
  }
}

# At 100 requests a second Llama 3.1 8B takes 27 copies of one VM each: a
# preset Workspace serves one copy (KAITO 0.6.0 runs it on at most
# resource.count VMs as one server), so each copy gets its own Workspace.
run "preset_workspace_per_copy" {
  command = plan

  variables {
    model               = { name = "llama-3.1-8b" }
    requests_per_second = 100
    model_access_secret = "hf-token"
  }

  assert {
    condition     = data.hpcsku_recommendation.serve.recommendations[0].replicas > 1 && length(kubernetes_manifest.preset) == data.hpcsku_recommendation.serve.recommendations[0].replicas
    error_message = "Each copy of the model should get a Workspace of its own."
  }

  assert {
    condition = alltrue([
      for w in kubernetes_manifest.preset : w.manifest.resource.count == data.hpcsku_recommendation.serve.recommendations[0].pipeline_parallel_size
    ]) && length(distinct([for w in kubernetes_manifest.preset : w.manifest.metadata.name])) == length(kubernetes_manifest.preset)
    error_message = "Each Workspace should take the VMs of one copy, under a name of its own."
  }
}

# A model without a preset runs vLLM from a template with the
# recommendation's arguments.
run "template_workspace" {
  command = plan

  variables {
    model              = { name = "qwen3-8b" }
    hugging_face_model = "Qwen/Qwen3-8B"
  }

  assert {
    condition     = length(kubernetes_manifest.template) == 1 && output.preset_name == null
    error_message = "A model without a preset should get the template Workspace."
  }

  assert {
    condition = contains(kubernetes_manifest.template[0].manifest.inference.template.spec.containers[0].args, "--model=Qwen/Qwen3-8B") && anytrue([
      for a in kubernetes_manifest.template[0].manifest.inference.template.spec.containers[0].args : startswith(a, "--max-num-seqs=")
    ])
    error_message = "The vLLM pod should take the model and the recommendation's arguments."
  }
}

# Without a preset and without the model to serve, the plan stops.
run "template_needs_the_model" {
  command = plan

  variables {
    model = { name = "qwen3-8b" }
  }

  expect_failures = [kubernetes_manifest.template]
}

# A name that leaves no room for the -N suffix of one Workspace per copy is
# refused at the variable: 59 characters.
run "name_leaves_room_for_the_copy_suffix" {
  command = plan

  variables {
    name  = "a2345678901234567890123456789012345678901234567890123456789"
    model = { name = "llama-3.1-8b" }
  }

  expect_failures = [var.name]
}
