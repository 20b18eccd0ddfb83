// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

// Command terraform-provider-hpcsku serves the hpcsku Terraform provider.
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"

	"github.com/hpcsku/terraform-provider-hpcsku/internal/provider"
)

// version is set at link time by `make install` and the release build
// (.goreleaser.yml): -X main.version=<version>.
var version = "dev"

func main() {
	var debug, printVersion bool
	flag.BoolVar(&debug, "debug", false, "set to true to run the provider with support for debuggers like delve")
	flag.BoolVar(&printVersion, "version", false, "print the provider's version and exit")
	flag.Parse()
	if printVersion {
		fmt.Println(version)
		return
	}
	if !debug {
		quietSDKLogs()
	}

	var opts []tf6server.ServeOpt
	if debug {
		opts = append(opts, tf6server.WithManagedDebug())
	}
	err := tf6server.Serve("registry.terraform.io/hpcsku/hpcsku", func() tfprotov6.ProviderServer {
		p := provider.New(version)()
		fw, err := providerserver.NewProtocol6WithError(p)()
		if err != nil {
			log.Fatal(err.Error())
		}
		return provider.NewServer(p, fw)
	}, opts...)
	if err != nil {
		log.Fatal(err.Error())
	}
}

// quietSDKLogs switches off the trace logs of terraform-plugin-go and
// terraform-plugin-framework when Terraform is going to discard them.
//
// The SDKs log every RPC and every attribute they validate at TRACE, as JSON
// on stderr, whatever Terraform's log level: about 170 KB for each
// hpcsku_recommendation of a plan. Terraform reads and parses every line and,
// when neither TF_LOG nor TF_LOG_PROVIDER is set, drops it; at 100 data
// sources that parsing took a quarter of Terraform's CPU time (bench/README.md).
// Terraform starts providers with its own environment, so when any TF_LOG*
// variable is set, or TF_TEMP_LOG_PATH (a log sink that keeps everything),
// nothing changes here and every log is written as before. TF_LOG_SDK only
// sets the SDK loggers' level; the provider's own logs (TF_LOG_PROVIDER) are
// untouched.
func quietSDKLogs() {
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "TF_LOG") || strings.HasPrefix(kv, "TF_TEMP_LOG_PATH=") {
			return
		}
	}
	_ = os.Setenv("TF_LOG_SDK", "OFF")
}
