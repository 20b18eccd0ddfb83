// Copyright (c) The terraform-provider-hpcsku Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// NewServer serves p through fw, the framework's protocol 6 server for p
// (providerserver.NewProtocol6), except that hpcsku_recommendation's
// configurations are validated by validateConfig and its reads go from the
// request's msgpack straight to readRecommendation and back.
//
// The framework walks a data source's whole state twice after Read: once to
// compare values with semantic equality (none of this provider's types has
// it) and once to turn null list blocks into empty ones (the provider has no
// blocks), looking every null value's attribute up in the schema from its
// root. For a recommendation, whose ranked sizes nest five levels deep, that
// was five sixths of a read (bench/README.md); and its validation resolved
// every attribute's path from the schema's root, as costly as a read.
// Everything else, every other data source and function included, is the
// framework's. A provider p of another kind is served by fw alone.
//
// The framework's server comes from the caller because building one is
// serving code (package providerserver brings gRPC and go-plugin along),
// which this package keeps out (TestProviderCodeCannotReachTheNetwork).
func NewServer(p provider.Provider, fw tfprotov6.ProviderServer) tfprotov6.ProviderServer {
	hp, ok := p.(*hpcskuProvider)
	if !ok {
		return fw
	}
	return &server{ProviderServer: fw, provider: hp}
}

type server struct {
	tfprotov6.ProviderServer
	provider *hpcskuProvider
}

// recommendationValidatedFast is whether validateConfig handles
// hpcsku_recommendation's schema (validatedFast).
var recommendationValidatedFast = sync.OnceValue(func() bool { return validatedFast(recommendationSchema().Attributes) })

func (s *server) ValidateDataResourceConfig(ctx context.Context, req *tfprotov6.ValidateDataResourceConfigRequest) (*tfprotov6.ValidateDataResourceConfigResponse, error) {
	if req.TypeName != recommendationTypeName || !recommendationValidatedFast() {
		return s.ProviderServer.ValidateDataResourceConfig(ctx, req)
	}
	config, diags := decodeConfig(req.Config)
	if !diags.HasError() {
		diags = validateConfig(ctx, tfsdk.Config{Raw: config, Schema: recommendationSchema()}, recommendationSchema().Attributes)
	}
	return &tfprotov6.ValidateDataResourceConfigResponse{Diagnostics: protoDiagnostics(diags)}, nil
}

// decodeConfig decodes an hpcsku_recommendation configuration.
func decodeConfig(dv *tfprotov6.DynamicValue) (tftypes.Value, diag.Diagnostics) {
	var diags diag.Diagnostics
	config, err := dv.Unmarshal(recommendationStateType())
	if err != nil {
		diags.AddError("Configuration Not Decoded", "The configuration of hpcsku_recommendation could not be decoded. This is a bug in the provider or in Terraform; please report it with this message:\n\n"+err.Error())
	}
	return config, diags
}

func (s *server) ReadDataSource(ctx context.Context, req *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	if req.TypeName != recommendationTypeName {
		return s.ProviderServer.ReadDataSource(ctx, req)
	}
	typ := recommendationStateType()
	config, diags := decodeConfig(req.Config)
	if diags.HasError() {
		return &tfprotov6.ReadDataSourceResponse{Diagnostics: protoDiagnostics(diags)}, nil
	}
	state, diags := readRecommendation(ctx, tfsdk.Config{Raw: config, Schema: recommendationSchema()}, s.provider.configured.Load())
	resp := &tfprotov6.ReadDataSourceResponse{Diagnostics: protoDiagnostics(diags)}
	if diags.HasError() {
		return resp, nil
	}
	resp.State, diags = encodeState(typ, state, diags)
	resp.Diagnostics = protoDiagnostics(diags)
	return resp, nil
}

// encodeState is state as msgpack, or nil and diags with the error added.
func encodeState(typ tftypes.Type, state tftypes.Value, diags diag.Diagnostics) (*tfprotov6.DynamicValue, diag.Diagnostics) {
	dv, err := tfprotov6.NewDynamicValue(typ, state)
	if err != nil {
		diags.AddError("State Not Encoded", "The state of hpcsku_recommendation could not be encoded. This is a bug in the provider; please report it with this message:\n\n"+err.Error())
		return nil, diags
	}
	return &dv, diags
}

// protoDiagnostics converts diagnostics as the framework does: severity,
// summary, detail and the attribute path.
func protoDiagnostics(diags diag.Diagnostics) []*tfprotov6.Diagnostic {
	out := make([]*tfprotov6.Diagnostic, 0, len(diags))
	for _, d := range diags {
		pd := &tfprotov6.Diagnostic{Severity: tfprotov6.DiagnosticSeverityWarning, Summary: d.Summary(), Detail: d.Detail()}
		if d.Severity() == diag.SeverityError {
			pd.Severity = tfprotov6.DiagnosticSeverityError
		}
		if wp, ok := d.(diag.DiagnosticWithPath); ok {
			pd.Attribute = attributePath(wp.Path())
		}
		out = append(out, pd)
	}
	return out
}

// attributePath is p as terraform-plugin-go's path; nil for the root.
func attributePath(p path.Path) *tftypes.AttributePath {
	steps := p.Steps()
	if len(steps) == 0 {
		return nil
	}
	ap := tftypes.NewAttributePath()
	for _, step := range steps {
		switch s := step.(type) {
		case path.PathStepAttributeName:
			ap = ap.WithAttributeName(string(s))
		case path.PathStepElementKeyInt:
			ap = ap.WithElementKeyInt(int(s))
		case path.PathStepElementKeyString:
			ap = ap.WithElementKeyString(string(s))
		default:
			// A set element's path (PathStepElementKeyValue) needs its
			// value's type; no hpcsku_recommendation input is a set, so the
			// diagnostic points at the set itself.
			return ap
		}
	}
	return ap
}
