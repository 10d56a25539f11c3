// Package grpc is a stand-in for the real package: the methods spvet
// models, with bodies of its own.
package grpc

import "net"

// Server serves until stopped.
type Server struct{ lis net.Listener }

// Serve accepts until Stop.
func (s *Server) Serve(lis net.Listener) error { s.lis = lis; return nil }

// Stop closes the listener.
func (s *Server) Stop() {}

// GracefulStop stops after the pending calls.
func (s *Server) GracefulStop() {}
