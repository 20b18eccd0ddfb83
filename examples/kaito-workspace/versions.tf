terraform {
  required_version = ">= 1.5.0"

  required_providers {
    hpcsku = {
      source  = "hpcsku/hpcsku"
      version = "~> 0.1"
    }
    kubernetes = {
      source  = "hashicorp/kubernetes"
      version = ">= 2.8"
    }
  }
}
